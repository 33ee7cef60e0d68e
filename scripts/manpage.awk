# scripts/manpage.awk — markdown pages of docs/ as one man(7) page (no pandoc): the Makefile's
# `docs` target makes apicli-targets(5) from docs/target-files.md and docs/project-file.md.
#   awk -v name=apicli-targets -v section=5 -v version=0.1.0 -v summary="…" [-v see="…"] -f scripts/manpage.awk PAGE.md…
# What the manual's pages use: # and ## headings, paragraphs, - lists, ``` and indented code,
# | tables | (a row: a tagged paragraph), `code`, **bold**, [links](…) (their text). Anything else
# is text. Each page's # heading is a section (.SH); the first page's is DESCRIPTION.
function esc(s) {
    gsub(/\\/, "\\e", s)
    gsub(/→/, "\\(->", s); gsub(/—/, "\\(em", s); gsub(/–/, "\\(en", s); gsub(/…/, "...", s); gsub(/•/, "\\(bu", s)
    return s
}
function lead(s) { return (s ~ /^[.']/) ? "\\&" s : s }
# Inline markup of escaped text: links to their text, `code` and **bold** in bold.
function inline(s,    out, i) {
    s = esc(s)
    while (match(s, /\[[^]]*\]\([^)]*\)/)) {
        out = substr(s, RSTART, RLENGTH); i = index(out, "](")
        s = substr(s, 1, RSTART - 1) substr(out, 2, i - 2) substr(s, RSTART + RLENGTH)
    }
    out = ""
    while (match(s, /`[^`]*`/)) {
        out = out substr(s, 1, RSTART - 1) "\\fB" substr(s, RSTART + 1, RLENGTH - 2) "\\fR"
        s = substr(s, RSTART + RLENGTH)
    }
    s = out s; out = ""
    while (match(s, /\*\*[^*]*\*\*/)) {
        out = out substr(s, 1, RSTART - 1) "\\fB" substr(s, RSTART + 2, RLENGTH - 4) "\\fR"
        s = substr(s, RSTART + RLENGTH)
    }
    return lead(out s)
}
function flush() { if (para != "") { print inline(para); para = "" } }
function cells(line, arr,    n, i, parts) {
    gsub(/\\\|/, "\001", line)
    n = split(line, parts, "|")
    for (i = 2; i < n; i++) { arr[i - 1] = parts[i]; gsub(/\001/, "|", arr[i - 1]); gsub(/^ +| +$/, "", arr[i - 1]) }
    return n - 2
}
BEGIN {
    printf ".TH %s %s \"\" \"apicli %s\" \"apicli manual\"\n", toupper(name), section, version
    print ".SH NAME"
    print name " \\- " esc(summary)
    pages = 0
}
FNR == 1 { flush(); pages++; code = 0; table = 0 }
code {
    if ($0 ~ /^```/) { print ".fi"; print ".RE"; code = 0; next }
    print lead(esc($0)); next
}
/^```/ { flush(); print ".PP"; print ".RS 4"; print ".nf"; code = 1; next }
/^# / { flush(); print ".SH " (pages == 1 ? "DESCRIPTION" : toupper(esc(substr($0, 3)))); started = 1; next }
/^##+ / { flush(); sub(/^##+ /, ""); print ".SS " inline($0); next }
/^\|/ {
    flush()
    if (!table) { table = 1; next }                 # the heading row
    if ($0 ~ /^\| *---/) next
    n = cells($0, c)
    print ".TP"
    if (n >= 3) { print inline(c[2] " (" c[1] ")"); print inline(c[3]) } else { print inline(c[1]); print inline(c[2]) }
    next
}
{ table = 0 }
/^    / && para == "" && !inlist {                  # an indented code block
    if (!incode) { print ".PP"; print ".RS 4"; print ".nf"; incode = 1 }
    print lead(esc(substr($0, 5))); next
}
incode { print ".fi"; print ".RE"; incode = 0 }
/^$/ { flush(); inlist = 0; if (started) blank = 1; next }
/^- / { flush(); print ".IP \\(bu 2"; para = substr($0, 3); inlist = 1; next }
{
    line = $0; sub(/^ +/, "", line)
    if (blank && !inlist) { print ".PP" }
    blank = 0
    para = (para == "" ? line : para " " line)
}
END {
    flush(); if (incode) { print ".fi"; print ".RE" }
    if (see != "") { print ".SH SEE ALSO"; print esc(see) }
}
