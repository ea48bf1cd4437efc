#ifndef AVIATOR_CMOSQUITTO_SHIM_H
#define AVIATOR_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <mqtt_protocol.h>
#endif
