# bash completion for wenc(1), the WHATWG Encoding Standard tool.
# Source this file, or install it as /usr/share/bash-completion/completions/wenc.

_wenc_labels()
{
    # Labels come from the tool itself: "label<TAB>encoding" per line.
    "${COMP_WORDS[0]}" labels 2>/dev/null | cut -f1
}

_wenc()
{
    local cur prev cmd i opts
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}

    case $prev in
        -f|--from|-t|--to|--label|--default)
            COMPREPLY=($(compgen -W "$(_wenc_labels)" -- "$cur"))
            return 0
            ;;
        --bom)
            COMPREPLY=($(compgen -W "sniff strip keep" -- "$cur"))
            return 0
            ;;
        --unmappable)
            COMPREPLY=($(compgen -W "html fatal subst subst= skip" -- "$cur"))
            return 0
            ;;
        -o|--output)
            COMPREPLY=($(compgen -f -- "$cur"))
            return 0
            ;;
    esac

    # The subcommand: the first word, or convert for "wenc -f X -t Y".
    cmd=
    if [ "$COMP_CWORD" -gt 1 ]; then
        case ${COMP_WORDS[1]} in
            -f*|-t*|--from*|--to*) cmd=convert ;;
            *) cmd=${COMP_WORDS[1]} ;;
        esac
    fi

    case $cmd in
        '')
            if [[ $cur == -* ]]; then
                opts="--help --version -l --list -f --from -t --to"
            else
                opts="decode encode convert sniff labels label"
            fi
            COMPREPLY=($(compgen -W "$opts" -- "$cur"))
            return 0
            ;;
        decode)
            opts="-f --from --fatal --replacement --bom --sniff-html --label --default --locale -o --output --overwrite-lossy -q --quiet --progress --help"
            ;;
        encode)
            opts="-t --to --fatal --html --unmappable --utf16-output --utf16-bom --standard-output-encoding -o --output --overwrite-lossy -q --quiet --progress --help"
            ;;
        convert)
            opts="-f --from -t --to --fatal --replacement --html --unmappable --utf16-output --utf16-bom --standard-output-encoding --bom -o --output --overwrite-lossy -q --quiet --progress --help"
            ;;
        sniff)
            opts="--html --label --default --locale --help"
            ;;
        labels)
            COMPREPLY=($(compgen -W "--json --by-encoding --help" -- "$cur"))
            return 0
            ;;
        label)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--help" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "$(_wenc_labels)" -- "$cur"))
            fi
            return 0
            ;;
        *)
            return 0
            ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
    return 0
}

complete -F _wenc wenc
