/* LAPACKE (C interface to LAPACK) over OpenBLAS. */
#include <lapacke.h>
