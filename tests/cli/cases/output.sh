# Sourced by tests/cli/run.sh: -o through a symbolic link writes the file
# the link leads to and leaves the link a link.

rm -rf olink && mkdir olink olink/sub
printf 'old' > olink/target
ln -s target olink/link
ln -s ../target olink/sub/rel
input 'caf\351'
t '-o LINK: the output goes to the target' 0 '' '' decode -f windows-1252 -o olink/link
equal '-o LINK: the target holds the output' "$(od -An -tx1 olink/target | tr -d ' ')" 636166c3a9
if [ -L olink/link ] && [ "$(readlink olink/link)" = target ]; then
    pass '-o LINK: the link is still a link to the target'
else
    fail '-o LINK: the link is still a link to the target'
fi
input 'x'
t '-o LINK (relative, from another folder)' 0 '' '' decode -o olink/sub/rel
equal '-o LINK (relative): the target holds the output' "$(cat olink/target)" x
if [ -L olink/sub/rel ]; then
    pass '-o LINK (relative): still a link'
else
    fail '-o LINK (relative): still a link'
fi
if ls olink/.wenc-* olink/sub/.wenc-* > /dev/null 2>&1; then
    fail '-o LINK: no temporary file left'
else
    pass '-o LINK: no temporary file left'
fi
