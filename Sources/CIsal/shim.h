/* ISA-L's igzip (Debian libisal-dev): raw DEFLATE and zlib streams inflated about twice as fast as zlib. */
#include <isa-l/igzip_lib.h>
