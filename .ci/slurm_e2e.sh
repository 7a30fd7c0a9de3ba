#!/usr/bin/env bash
# End-to-end test of profiles/slurm on a real one-node SLURM cluster on localhost.
#
# Installs Debian's slurmctld, slurmd, slurm-client and munge (apt-get, when missing; needs root),
# starts munged, slurmctld and slurmd directly (no systemd; accounting off, MinJobAge=300, state and
# logs in a temporary folder), then runs a small target of the quick workflow twice:
#   1. locally (--cores 2), as the reference;
#   2. through `--profile profiles/slurm` under `timeout -s INT`,
# and checks that
#   - the SLURM run's outputs equal the local ones (byte-identical; JSON/CSV compared without their
#     wall-clock timing fields, *.timing.json skipped: .ci/compare_outputs.py),
#   - every job Snakemake reports as submitted went through SLURM (slurmctld's log shows it allocated
#     and completed), and at least one did,
#   - a second run through the profile has nothing to do.
# Every daemon it started is stopped by its PID on exit (trap), and leftover jobs are cancelled.
#
#   bash .ci/slurm_e2e.sh          (called from .ci/run; `make ci-slurm` installs the environment first)
# Environment: SLURM_E2E_KEEP=1 keeps the temporary folder; SLURM_E2E_TIMEOUT (seconds, default 900).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
PY=$REPO/.venv/bin/python
SNAKEMAKE=$REPO/.venv/bin/snakemake
TIMEOUT=${SLURM_E2E_TIMEOUT:-900}
# the target: chapter 3's pipeline for one data set on the tiny test overrides (data sets, per-fold
# jobs, summary, figure 3.4): cluster jobs with seeds, threads and resources, plus local rules
TARGETS=(figures/fig3_4.png results/chapter3/summary/linear_zhang_feature_noise.csv)
CONFIG=("$REPO/config.yaml" "$REPO"/tests/workflow/*.yaml)
T_START=$SECONDS
say() { printf '[slurm-e2e %4ds] %s\n' "$((SECONDS - T_START))" "$*"; }
fail() { say "FAIL: $*"; exit 1; }

# --- 0. packages ------------------------------------------------------------------------------------
need=()
for cmd in slurmctld slurmd sbatch munged mungekey; do command -v "$cmd" >/dev/null 2>&1 || need+=("$cmd"); done
if [ ${#need[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 ||
        fail "missing ${need[*]}; install slurmctld slurmd slurm-client munge (needs root and apt-get)"
    say "installing slurmctld slurmd slurm-client munge"
    pkgs=(slurmctld slurmd slurm-client munge)
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null 2>&1 || {
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
    }
fi
"$PY" -c "import snakemake_executor_plugin_slurm" 2>/dev/null ||
    fail "snakemake-executor-plugin-slurm is not installed in .venv (make install)"
say "packages ready ($(slurmctld -V))"

# --- 1. a one-node cluster in a temporary folder -----------------------------------------------------
W=$(mktemp -d /tmp/fscompbio-slurm.XXXXXX)
chmod 700 "$W"
mkdir -p "$W"/{etc,munge,state,spool,log,run,local,slurm}
PIDS=()
cleanup() {
    local rc=$?
    set +e
    if [ -n "${OWN_CONF:-}" ] && [ ${#PIDS[@]} -ge 2 ]; then
        scancel --quiet --full --user "$(id -un)" >/dev/null 2>&1  # jobs left by an interrupted run
    fi
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do kill "${PIDS[i]}" 2>/dev/null; done
    for pid in "${PIDS[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null
    done
    if [ -n "${OWN_CONF:-}" ]; then
        [ "${SLURM_E2E_KEEP:-0}" = 1 ] && cp "$OWN_CONF" "$W/etc/slurm.conf"
        rm -f "$OWN_CONF"
    fi
    if [ "$rc" != 0 ]; then
        say "logs of the failed run:"
        for f in "$W"/log/*.log "$W"/*.out; do [ -f "$f" ] && { echo "--- $f"; tail -n 40 "$f"; }; done
    fi
    if [ "${SLURM_E2E_KEEP:-0}" = 1 ]; then say "kept $W"; else rm -rf "$W"; fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

NODE=$(hostname -s)
NCPU=$(nproc)
MEM_MB=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
MUNGE_SOCKET=$W/munge/munge.socket.2
# ports away from SLURM's defaults (6817/6818), so that a site's own daemons are not disturbed
CTLD_PORT=${SLURM_E2E_CTLD_PORT:-16817}
SLURMD_PORT=${SLURM_E2E_SLURMD_PORT:-16818}

mungekey --create --keyfile="$W/munge/munge.key" >/dev/null 2>&1 ||
    { dd if=/dev/urandom of="$W/munge/munge.key" bs=1 count=1024 2>/dev/null && chmod 400 "$W/munge/munge.key"; }
munged --foreground --force --key-file="$W/munge/munge.key" --socket="$MUNGE_SOCKET" \
    --pid-file="$W/run/munged.pid" --log-file="$W/log/munged.log" --seed-file="$W/munge/munged.seed" \
    >"$W/munged.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do munge -n -S "$MUNGE_SOCKET" 2>/dev/null | unmunge -S "$MUNGE_SOCKET" >/dev/null 2>&1 && break; sleep 0.1; done
munge -n -S "$MUNGE_SOCKET" | unmunge -S "$MUNGE_SOCKET" >/dev/null || fail "munged did not start"

# The configuration goes where a site has it, /etc/slurm/slurm.conf: the plugin's job step drops
# SLURM_* variables (SLURM_CONF too) before its inner `srun`, which then reads the default location.
# A machine that already has a slurm.conf is left alone (its own SLURM would be disturbed).
[ ! -e /etc/slurm/slurm.conf ] || fail "/etc/slurm/slurm.conf exists: this machine has its own SLURM; not touching it"
mkdir -p /etc/slurm
OWN_CONF=/etc/slurm/slurm.conf
export SLURM_CONF=$OWN_CONF
cat >"$SLURM_CONF" <<EOF
# one-node test cluster of .ci/slurm_e2e.sh
ClusterName=fscompbio-ci
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCKET
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/run/slurmctld.pid
SlurmdPidFile=$W/run/slurmd.pid
SlurmctldLogFile=$W/log/slurmctld.log
SlurmdLogFile=$W/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# no accounting, no cgroups: a plain node
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
# finished jobs stay visible to squeue for 5 minutes (the profile's slurm-status-command: squeue)
MinJobAge=300
ReturnToService=2
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$NCPU RealMemory=$MEM_MB State=UNKNOWN
PartitionName=ci Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -c -f "$SLURM_CONF" >"$W/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -N "$NODE" -f "$SLURM_CONF" >"$W/slurmd.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do
    state=$(sinfo -h -N -o %t 2>/dev/null | head -n1 || true)
    [ "$state" = idle ] && break
    sleep 0.2
done
[ "$state" = idle ] || fail "the node did not become idle (state: '${state:-none}')"
say "cluster up: $NODE, $NCPU CPUs, ${MEM_MB} MB, $(scontrol show config | grep -E '^MinJobAge' | tr -s ' ')"

# --- 2. the reference: the same target run locally ----------------------------------------------------
t0=$SECONDS
(cd "$W/local" && "$SNAKEMAKE" "${TARGETS[@]}" -s "$REPO/Snakefile" --configfile "${CONFIG[@]}" \
    --cores 2 >"$W/local.out" 2>&1) || fail "the local run failed (see $W/local.out)"
say "local run: $((SECONDS - t0)) s"

# --- 3. the same target through profiles/slurm -------------------------------------------------------
t0=$SECONDS
run_slurm() {
    (cd "$W/slurm" && timeout -s INT "$TIMEOUT" "$SNAKEMAKE" "${TARGETS[@]}" -s "$REPO/Snakefile" \
        --profile "$REPO/profiles/slurm" --configfile "${CONFIG[@]}" \
        --slurm-init-seconds-before-status-checks 5 "$@")
}
run_slurm >"$W/slurm1.out" 2>&1 || fail "the SLURM run failed or timed out after ${TIMEOUT} s (see $W/slurm1.out)"
say "SLURM run: $((SECONDS - t0)) s"
cp "$W/slurm1.out" "$W/log/snakemake-slurm-run1.log"

# --- 4. checks -----------------------------------------------------------------------------------------
"$PY" .ci/compare_outputs.py "$W/local" "$W/slurm" || fail "the SLURM run's outputs differ from the local run's"

mapfile -t jobids < <(grep -oE 'submitted with SLURM jobid [0-9]+' "$W/slurm1.out" | awk '{print $NF}' | sort -un)
[ ${#jobids[@]} -ge 1 ] || fail "no job was submitted to SLURM"
for id in "${jobids[@]}"; do
    grep -qE "sched: Allocate JobId=$id |_slurm_rpc_submit_batch_job: JobId=$id " "$W/log/slurmctld.log" ||
        fail "SLURM job $id is not in slurmctld's log"
    grep -qE "_job_complete: JobId=$id done" "$W/log/slurmctld.log" ||
        fail "SLURM job $id did not complete according to slurmctld's log"
done
n_local=$(grep -cE '^localrule ' "$W/slurm1.out" || true)
say "slurmctld log: ${#jobids[@]} jobs submitted, allocated and completed; $n_local local rule(s) on the head node"

t0=$SECONDS
run_slurm >"$W/slurm2.out" 2>&1 || fail "the second SLURM run failed (see $W/slurm2.out)"
grep -q "Nothing to be done" "$W/slurm2.out" || fail "the second run had work to do:$(echo; tail -n 30 "$W/slurm2.out")"
! grep -q "submitted with SLURM jobid" "$W/slurm2.out" || fail "the second run submitted jobs"
say "second run: nothing to be done ($((SECONDS - t0)) s)"
say "PASSED: profiles/slurm end to end in $((SECONDS - T_START)) s"
