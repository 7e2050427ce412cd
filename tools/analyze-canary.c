/*
 * Not part of wenc: tools/analyze.sh checks that each analyzer reports at
 * least one of the defects below (a read after free(), a read past the end
 * of an array) before it trusts the analyzer's silence on src/ and cli/.
 */
#include <stdlib.h>

int analyze_canary(int n);

int analyze_canary(int n)
{
    int counts[4] = {0};
    int *values = malloc(4 * sizeof *values);
    if (values == NULL)
        return counts[4];
    values[0] = n;
    free(values);
    return values[0];
}
