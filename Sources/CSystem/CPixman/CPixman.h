#include <pixman.h>
// pixman_fixed_1 and pixman_double_to_fixed are macros that Swift cannot import.
static inline pixman_fixed_t cpixman_double_to_fixed(double d) { return (pixman_fixed_t)(d * 65536.0); }
static inline pixman_fixed_t cpixman_fixed_1(void) { return ((pixman_fixed_t)1) << 16; }
