"""Hypothesis profiles: random examples by default (each local run explores new inputs), the same examples
on every CI run (``HYPOTHESIS_PROFILE=ci``, set by ``.ci/run``) so that a landing never hinges on the draw."""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("explore", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "explore"))
