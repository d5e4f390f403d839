# Used by bench.sh for the properties table (awk -f scripts/loc-added.awk).
# Added lines of a "git diff -U0", without the KUnit tests that live in
# source files (#ifdef CONFIG_..._KUNIT... to its #endif) and their
# Kconfig entries (config ..._KUNIT... to the next blank or unindented line).
/^\+\+\+ / { next }
!/^\+/ { next }
{ l = substr($0, 2) }
kconfig && (l == "" || l ~ /^[^ \t]/) { kconfig = 0 }
l ~ /^config [A-Z0-9_]*KUNIT/ { kconfig = 1 }
kconfig { next }
depth == 0 && l ~ /^#if(def)? .*KUNIT/ { depth = 1; next }
depth > 0 && l ~ /^#if/ { depth++; next }
depth > 0 && l ~ /^#endif/ { depth--; next }
depth > 0 { next }
{ n++ }
END { print n + 0 }
