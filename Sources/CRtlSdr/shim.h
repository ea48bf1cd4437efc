#ifndef AVIATOR_CRTLSDR_SHIM_H
#define AVIATOR_CRTLSDR_SHIM_H
#include <rtl-sdr.h>
#endif
