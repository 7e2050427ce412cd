/* Command-line options: the stream subcommands' parser and the tests every
 * subcommand makes of its arguments. */
#include "cli.h"

#include <string.h>

/*
 * Matches argv[*i] against an option that takes a value: "-x VALUE",
 * "-xVALUE", "--long VALUE" or "--long=VALUE". Returns 1 and sets *value on
 * a match, 0 when the argument is another option, and -1 (after reporting
 * the usage error) when the value is missing.
 */
int option_value(int argc, char **argv, int *i, char short_name,
                 const char *long_name, const char **value)
{
    const char *arg = argv[*i];
    size_t long_len = strlen(long_name);

    if (short_name != '\0' && arg[0] == '-' && arg[1] == short_name) {
        if (arg[2] != '\0') {
            *value = arg + 2;
            return 1;
        }
    } else if (strncmp(arg, long_name, long_len) == 0) {
        if (arg[long_len] == '=') {
            *value = arg + long_len + 1;
            return 1;
        }
        if (arg[long_len] != '\0')
            return 0;
    } else {
        return 0;
    }
    if (*i + 1 >= argc) {
        message m = { .len = 0 };
        msg_add(&m, "wenc: option ");
        msg_add_quoted(&m, arg);
        msg_add(&m, " needs a value\nTry 'wenc --help'.\n");
        msg_emit(&m);
        return -1;
    }
    *i += 1;
    *value = argv[*i];
    return 1;
}

int is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

/* An argument that is an option (not "-" alone, which names stdin). */
int is_option(const char *arg)
{
    return arg[0] == '-' && arg[1] != '\0';
}

/* --unmappable's value: html, fatal, subst, subst=C (one printable ASCII
 * character) or skip. Returns 0, or -1 for anything else. */
static int unmappable_mode(const char *value, options *o)
{
    if (strcmp(value, "html") == 0)
        o->unmappable = UNM_HTML;
    else if (strcmp(value, "fatal") == 0)
        o->unmappable = UNM_FATAL;
    else if (strcmp(value, "skip") == 0)
        o->unmappable = UNM_SKIP;
    else if (strcmp(value, "subst") == 0)
        o->unmappable = UNM_SUBST, o->subst = '?';
    else if (strncmp(value, "subst=", 6) == 0 && value[6] >= 0x20 &&
             value[6] < 0x7F && value[7] == '\0')
        o->unmappable = UNM_SUBST, o->subst = value[6];
    else
        return -1;
    return 0;
}

/* Parses a stream subcommand's arguments. Returns -1 to go on, or an exit
 * status. */
int parse_options(int argc, char **argv, unsigned allowed,
                         const char *help, options *o)
{
    int options_done = 0;
    int i;

    o->files = argv;
    o->nfiles = 0;
    for (i = 0; i < argc; i++) {
        const char *arg = argv[i];
        const char *value;
        int r;

        if (options_done || !is_option(arg)) {
            argv[o->nfiles++] = argv[i];
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            options_done = 1;
            continue;
        }
        if (is_help(arg))
            return print_text(help);
        if ((allowed & (OPT_FATAL_DEC | OPT_FATAL_ENC)) &&
            strcmp(arg, "--fatal") == 0) {
            if (allowed & OPT_FATAL_DEC)
                o->dec_mode = WENC_ERRORS_FATAL;
            if (allowed & OPT_FATAL_ENC)
                o->unmappable = UNM_FATAL;
            continue;
        }
        if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) {
            o->quiet = 1;
            continue;
        }
        if ((allowed & OPT_STREAM) && strcmp(arg, "--overwrite-lossy") == 0) {
            o->overwrite_lossy = 1;
            continue;
        }
        if ((allowed & OPT_HTML) &&
            (r = option_value(argc, argv, &i, '\0', "--unmappable",
                              &value)) != 0) {
            if (r < 0)
                return STATUS_USAGE;
            if (unmappable_mode(value, o) != 0)
                return usage_error("--unmappable takes html, fatal, "
                                   "subst, subst=CHAR or skip, not",
                                   value);
            continue;
        }
        if ((allowed & OPT_REPLACEMENT) && strcmp(arg, "--replacement") == 0) {
            o->dec_mode = WENC_ERRORS_REPLACEMENT;
            continue;
        }
        if ((allowed & OPT_HTML) && strcmp(arg, "--html") == 0) {
            o->unmappable = UNM_HTML;
            continue;
        }
        if ((allowed & OPT_TO) && strcmp(arg, "--utf16-output") == 0) {
            if (o->utf16_output == 0)
                o->utf16_output = 1;
            continue;
        }
        if ((allowed & OPT_TO) && strcmp(arg, "--utf16-bom") == 0) {
            o->utf16_output = 2;
            continue;
        }
        if ((allowed & OPT_TO) &&
            strcmp(arg, "--standard-output-encoding") == 0) {
            o->standard_output = 1;
            continue;
        }
        if ((allowed & OPT_SNIFF) && strcmp(arg, "--sniff-html") == 0) {
            o->sniff_html = 1;
            continue;
        }
        if ((allowed & OPT_SNIFF) &&
            (r = sniff_option(argc, argv, &i, &o->sniff)) != 0) {
            if (r > 1)
                return r;
            continue;
        }
        if ((allowed & OPT_STREAM) && strcmp(arg, "--progress") == 0) {
            o->progress = 1;
            continue;
        }
        if ((allowed & OPT_FROM) &&
            (r = option_value(argc, argv, &i, 'f', "--from", &value)) != 0) {
            if (r < 0)
                return STATUS_USAGE;
            o->from = value;
            continue;
        }
        if ((allowed & OPT_TO) &&
            (r = option_value(argc, argv, &i, 't', "--to", &value)) != 0) {
            if (r < 0)
                return STATUS_USAGE;
            o->to = value;
            continue;
        }
        if ((allowed & OPT_STREAM) &&
            (r = option_value(argc, argv, &i, 'o', "--output", &value)) != 0) {
            if (r < 0)
                return STATUS_USAGE;
            o->output = value;
            continue;
        }
        if ((allowed & OPT_BOM) &&
            (r = option_value(argc, argv, &i, '\0', "--bom", &value)) != 0) {
            if (r < 0)
                return STATUS_USAGE;
            if (strcmp(value, "sniff") == 0)
                o->bom = WENC_BOM_SNIFF;
            else if (strcmp(value, "strip") == 0)
                o->bom = WENC_BOM_STRIP;
            else if (strcmp(value, "keep") == 0)
                o->bom = WENC_BOM_KEEP;
            else
                return usage_error(
                    "--bom takes sniff, strip or keep, not", value);
            continue;
        }
        return usage_error("unknown option", arg);
    }
    return -1;
}

/* Looks a -f/-t label up; reports an unknown one (exit 2). */
int resolve(const char *label, wenc_id *id)
{
    *id = lookup(label);
    if (*id == WENC_INVALID) {
        report_unknown_label(label);
        return STATUS_USAGE;
    }
    return -1;
}
