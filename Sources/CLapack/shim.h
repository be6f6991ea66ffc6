/* LAPACKE, the C interface to LAPACK. liblapacke names liblapack.so.3, which on Debian is OpenBLAS once
   libopenblas0 is installed (the alternatives system), else the reference LAPACK. */
#include <lapacke.h>
