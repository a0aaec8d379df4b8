#!/bin/sh
# help_for_man.sh -- `warpmatch [COMMAND] --help` as help2man reads it, so
# that each man page is made from the very text --help prints.
#
#     help_for_man.sh TOOL [COMMAND] --help|--version
#
# help2man runs a program with --help; for warpmatch-COMMAND(1) that program
# is this script with the command. The one change: the usage lines after the
# first ("       warpmatch align ...") become help2man's "  or: warpmatch
# align ...", so they land in SYNOPSIS instead of DESCRIPTION.
tool=$1
shift
if [ "$#" -ge 2 ]; then
    cmd=$1
    shift
    "$tool" "$cmd" "$@" | sed -e 's/^       warpmatch /  or: warpmatch /'
else
    "$tool" "$@" | sed -e 's/^       warpmatch /  or: warpmatch /'
fi
