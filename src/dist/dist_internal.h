/* Internal declarations shared by the files of src/dist/. */
#ifndef MULRED_DIST_INTERNAL_H
#define MULRED_DIST_INTERNAL_H
#include "mulred/dist.h"
#endif
