/* zlib, for the compressed streams of scanner capture files. */
#include <zlib.h>
