// libjpeg-turbo. jpeglib.h needs stdio.h (FILE) and stddef.h first.
#include <stdio.h>
#include <stddef.h>
#include <jpeglib.h>
