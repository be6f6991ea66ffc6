/* ISA-L's igzip (Debian libisal-dev): the inflater of the scan streams, raw DEFLATE and zlib-wrapped (why ISA-L
 * rather than zlib: README "Dependencies, and why"; the numbers: bench/README.md "scan.py"). */
#include <isa-l/igzip_lib.h>
