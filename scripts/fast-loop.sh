# The fast loop's pytest arguments, sourced by scripts/check (--fast) and scripts/floors: the tests not marked slow,
# browser, server or packaging, with the light Hypothesis profile, one test file to a process on two processes.
# shellcheck disable=SC2034  # read by the scripts that source it
FAST_LOOP=(-n 2 --dist loadfile -m "not slow and not browser and not server and not packaging" --hypothesis-profile=fast)
