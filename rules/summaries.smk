# The summaries and panel figures of the study's data sets of chapters 3 and 4 in one job per chapter
# (chapterN.summaries_one_job: ch3_summaries, ch4_summaries), instead of a summary job and a panel job per
# data set (chapter3.smk, chapter4.smk), which your own data sets keep. The same files, byte for byte.

for _chapter, _short in [("chapter3", "ch3"), ("chapter4", "ch4")]:
    _grouped = grouped_summaries(_chapter)
    _panels = [d for d in _grouped if d in config[_chapter]["datasets"]]

    if _grouped:

        rule:
            name:
                f"{_short}_summaries"
            input:
                [f for d in _grouped for f in fold_files(_chapter, _chapter, d)],
            output:
                **{f"summary_{d}": f"results/{_chapter}/summary/{d}.csv" for d in _grouped},
                **{
                    f"panel_{d}": report(
                        figure(panel_id(_chapter, d)),
                        caption=panel_caption(_chapter, d),
                        category=CHAPTER_TITLES[_chapter],
                    )
                    for d in _panels
                },
            log:
                f"logs/{_chapter}/summaries.log",
            localrule: True
            conda:
                "../envs/study.yaml"
            threads: 1
            resources:
                mem_mb=LOCAL_MEM_MB,
                runtime=LOCAL_RUNTIME,
            params:
                inputs={d: fold_files(_chapter, _chapter, d) for d in _grouped},
                methods=config[_chapter]["methods"],
                sizes={d: run_sizes(_chapter, d) for d in _panels},
            script:
                "../scripts/summarise_chapter.py"
