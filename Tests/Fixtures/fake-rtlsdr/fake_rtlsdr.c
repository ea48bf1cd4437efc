/*
 * A stand-in for librtlsdr.so.0, so the daemon's RTL-SDR path can be tested without a dongle.
 * It implements the calls aviator-adsb makes and streams a recording through
 * rtlsdr_read_async. Built by the tests; loaded with LD_LIBRARY_PATH.
 *
 * Behaviour is set through the environment:
 *   AVIATOR_FAKE_RTLSDR_IQ            cu8 file to stream (silence when unset)
 *   AVIATOR_FAKE_RTLSDR_LOOP          "1": start the file again at its end (else silence follows)
 *   AVIATOR_FAKE_RTLSDR_REALTIME      "1": deliver at the configured sample rate (else at full speed)
 *   AVIATOR_FAKE_RTLSDR_DEVICES       number of devices present (default 1)
 *   AVIATOR_FAKE_RTLSDR_PRESENT_FILE  devices exist only while this file exists (hot-plug)
 *   AVIATOR_FAKE_RTLSDR_FAIL_OPEN     "1": rtlsdr_open fails, as for a device in use
 *   AVIATOR_FAKE_RTLSDR_UNPLUG_AFTER  bytes after which rtlsdr_read_async fails, as on unplug
 *   AVIATOR_FAKE_RTLSDR_STALL_AFTER   bytes after which delivery stops for STALL_SECONDS, once;
 *   AVIATOR_FAKE_RTLSDR_STALL_SECONDS the samples of that time are lost unreported, as when
 *                                     the USB buffers overflow under a stopped process
 *   AVIATOR_FAKE_RTLSDR_CF32          "1": the file is cf32, the sky as the antenna delivers it
 *                                     (as `aviator-adsb simulate --format cf32` writes it), and
 *                                     a tuner model makes the cu8 samples: see tuner_convert
 *   AVIATOR_FAKE_RTLSDR_GAIN_LOG      file to which each gain set is appended, as
 *                                     "<seconds since open> <dB or auto>"
 *
 * The tuner model (with AVIATOR_FAKE_RTLSDR_CF32): the file holds the sky and the radio noise
 * as they come out at the highest gain, 49.6 dB, in units of full scale (the simulator's noise
 * of 4 LSB rms is then -27 dBFS, and its cf32 files are cut at full scale as the converter would
 * cut them at that gain). A lower gain scales both down, by 10^((gain - 49.6) / 20) in
 * amplitude; then the converter adds its own noise, which no gain scales (0.7 LSB rms on each of
 * I and Q, about -42 dBFS with the rounding), and cuts each component to 8 bits, clipping at 0
 * and 255. A reply cut flat in the file stays flat at lower gains: only the replies strong
 * enough to clip at the highest gain are shaped wrongly, and they decode either way. The
 * tuner's AGC (gain mode automatic) is modelled as the highest gain, where it sits in a quiet
 * band between replies.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct rtlsdr_dev {
    uint32_t sample_rate;
    uint32_t frequency;
    int ppm;
    int manual_gain;
    volatile int gain;
    volatile int cancelled;
    double opened;
} rtlsdr_dev_t;

typedef void (*rtlsdr_read_async_cb_t)(unsigned char *buf, uint32_t len, void *ctx);

static const int fake_gains[] = {0, 9, 14, 27, 37, 77, 87, 125, 144, 157, 166, 197, 207, 229, 254,
                                 280, 297, 328, 338, 364, 372, 386, 402, 421, 434, 439, 445, 480, 496};

static const char *env(const char *name) {
    const char *value = getenv(name);
    return value && *value ? value : NULL;
}

uint32_t rtlsdr_get_device_count(void) {
    const char *present = env("AVIATOR_FAKE_RTLSDR_PRESENT_FILE");
    if (present && access(present, F_OK) != 0) return 0;
    const char *count = env("AVIATOR_FAKE_RTLSDR_DEVICES");
    return count ? (uint32_t)atoi(count) : 1;
}

const char *rtlsdr_get_device_name(uint32_t index) {
    return index < rtlsdr_get_device_count() ? "Fake RTL2838UHIDIR" : "";
}

int rtlsdr_get_device_usb_strings(uint32_t index, char *manufact, char *product, char *serial) {
    if (index >= rtlsdr_get_device_count()) return -1;
    if (manufact) strcpy(manufact, "aviator-adsb");
    if (product) strcpy(product, "fake dongle");
    if (serial) snprintf(serial, 256, "%08u", index + 1);
    return 0;
}

int rtlsdr_get_index_by_serial(const char *serial) {
    if (!serial) return -1;
    uint32_t count = rtlsdr_get_device_count();
    for (uint32_t i = 0; i < count; i++) {
        char own[16];
        snprintf(own, sizeof own, "%08u", i + 1);
        if (strcmp(own, serial) == 0) return (int)i;
    }
    return -3;
}

static double now_seconds(void);

int rtlsdr_open(rtlsdr_dev_t **dev, uint32_t index) {
    if (index >= rtlsdr_get_device_count()) return -1;
    if (env("AVIATOR_FAKE_RTLSDR_FAIL_OPEN")) return -6; /* LIBUSB_ERROR_BUSY */
    *dev = calloc(1, sizeof(rtlsdr_dev_t));
    if (*dev) (*dev)->opened = now_seconds();
    return *dev ? 0 : -1;
}

static void log_gain(rtlsdr_dev_t *dev) {
    const char *path = env("AVIATOR_FAKE_RTLSDR_GAIN_LOG");
    FILE *log = path ? fopen(path, "a") : NULL;
    if (!log) return;
    if (dev->manual_gain) fprintf(log, "%.3f %.1f\n", now_seconds() - dev->opened, dev->gain / 10.0);
    else fprintf(log, "%.3f auto\n", now_seconds() - dev->opened);
    fclose(log);
}

int rtlsdr_close(rtlsdr_dev_t *dev) {
    free(dev);
    return 0;
}

int rtlsdr_set_sample_rate(rtlsdr_dev_t *dev, uint32_t rate) {
    if (rate < 225001 || rate > 3200000) return -22;
    dev->sample_rate = rate;
    return 0;
}

uint32_t rtlsdr_get_sample_rate(rtlsdr_dev_t *dev) { return dev->sample_rate; }

int rtlsdr_set_center_freq(rtlsdr_dev_t *dev, uint32_t freq) {
    dev->frequency = freq;
    return 0;
}

uint32_t rtlsdr_get_center_freq(rtlsdr_dev_t *dev) { return dev->frequency; }

int rtlsdr_set_freq_correction(rtlsdr_dev_t *dev, int ppm) {
    if (dev->ppm == ppm) return -2;
    dev->ppm = ppm;
    return 0;
}

int rtlsdr_set_tuner_gain_mode(rtlsdr_dev_t *dev, int manual) {
    dev->manual_gain = manual;
    if (!manual) log_gain(dev);
    return 0;
}

int rtlsdr_get_tuner_gains(rtlsdr_dev_t *dev, int *gains) {
    (void)dev;
    int count = (int)(sizeof fake_gains / sizeof fake_gains[0]);
    if (gains) memcpy(gains, fake_gains, sizeof fake_gains);
    return count;
}

int rtlsdr_set_tuner_gain(rtlsdr_dev_t *dev, int gain) {
    dev->gain = gain;
    log_gain(dev);
    return 0;
}

int rtlsdr_get_tuner_gain(rtlsdr_dev_t *dev) { return dev->gain; }

/* A standard normal value (Box-Muller on a small xorshift generator: fixed seed, no libm rand). */
static double gaussian(uint64_t *state) {
    double u[2];
    for (int k = 0; k < 2; k++) {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        u[k] = ((*state >> 11) + 0.5) / 9007199254740992.0;
    }
    return sqrt(-2 * log(u[0])) * cos(6.283185307179586 * u[1]);
}

/* The tuner model: `count` cf32 samples of the sky at 49.6 dB in, cu8 samples out. */
static void tuner_convert(rtlsdr_dev_t *dev, const float *in, unsigned char *out, size_t count,
                          uint64_t *noise) {
    double gain = dev->manual_gain ? dev->gain / 10.0 : 49.6;
    double scale = 127.5 * pow(10, (gain - 49.6) / 20);
    for (size_t i = 0; i < 2 * count; i++) {
        double value = in[i] * scale + 0.7 * gaussian(noise);
        double code = floor(value + 128);
        out[i] = (unsigned char)(code < 0 ? 0 : code > 255 ? 255 : code);
    }
}

/* Fills `buffer` (cu8, `length` bytes) from `file`: cu8 as it is, or cf32 through the tuner
 * model. Returns the bytes filled; short only at the end of the file. */
static size_t read_samples(rtlsdr_dev_t *dev, FILE *file, unsigned char *buffer, size_t length,
                           float *floats, uint64_t *noise) {
    if (!floats) return fread(buffer, 1, length, file);
    size_t got = fread(floats, 2 * sizeof(float), length / 2, file);
    tuner_convert(dev, floats, buffer, got, noise);
    return 2 * got;
}

int rtlsdr_set_agc_mode(rtlsdr_dev_t *dev, int on) {
    (void)dev;
    (void)on;
    return 0;
}

int rtlsdr_reset_buffer(rtlsdr_dev_t *dev) {
    (void)dev;
    return 0;
}

int rtlsdr_cancel_async(rtlsdr_dev_t *dev) {
    dev->cancelled = 1;
    return 0;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int rtlsdr_read_async(rtlsdr_dev_t *dev, rtlsdr_read_async_cb_t cb, void *ctx, uint32_t buf_num,
                      uint32_t buf_len) {
    (void)buf_num;
    if (buf_len == 0) buf_len = 16 * 32 * 512;
    unsigned char *buffer = malloc(buf_len);
    if (!buffer) return -1;
    const char *path = env("AVIATOR_FAKE_RTLSDR_IQ");
    FILE *file = path ? fopen(path, "rb") : NULL;
    int loop = env("AVIATOR_FAKE_RTLSDR_LOOP") != NULL;
    int realtime = env("AVIATOR_FAKE_RTLSDR_REALTIME") != NULL;
    const char *unplug = env("AVIATOR_FAKE_RTLSDR_UNPLUG_AFTER");
    long long unplug_after = unplug ? atoll(unplug) : -1;
    const char *stall = env("AVIATOR_FAKE_RTLSDR_STALL_AFTER");
    long long stall_after = stall ? atoll(stall) : -1;
    const char *stall_for = env("AVIATOR_FAKE_RTLSDR_STALL_SECONDS");
    double stall_seconds = stall_for ? atof(stall_for) : 0;
    long long delivered = 0;
    float *floats = env("AVIATOR_FAKE_RTLSDR_CF32") ? malloc(buf_len * 2 * sizeof(float)) : NULL;
    uint64_t noise = 0x9E3779B97F4A7C15ULL;
    double start = now_seconds();
    double bytes_per_second = 2.0 * (dev->sample_rate ? dev->sample_rate : 2400000);
    int status = 0;

    dev->cancelled = 0;
    while (!dev->cancelled) {
        if (unplug_after >= 0 && delivered >= unplug_after) {
            status = -4; /* LIBUSB_ERROR_NO_DEVICE */
            break;
        }
        if (stall_after >= 0 && delivered >= stall_after) {
            stall_after = -1;
            /* Asleep, but a cancel ends the stall (and the streaming) as on a real device. */
            double stall_end = now_seconds() + stall_seconds;
            while (!dev->cancelled && now_seconds() < stall_end) usleep(10000);
            if (dev->cancelled) break;
            /* The dongle went on sampling: skip what it produced meanwhile. */
            long long lost = (long long)(stall_seconds * bytes_per_second) & ~1LL;
            while (file && lost > 0) {
                size_t chunk = lost < (long long)buf_len ? (size_t)lost : buf_len;
                size_t got = read_samples(dev, file, buffer, chunk, floats, &noise);
                lost -= (long long)got;
                if (got == 0) {
                    if (!loop) break;
                    rewind(file);
                }
            }
            start += stall_seconds;
        }
        size_t filled = 0;
        while (file && filled < buf_len) {
            size_t got = read_samples(dev, file, buffer + filled, buf_len - filled, floats, &noise);
            filled += got;
            if (got == 0) {
                if (loop) {
                    rewind(file);
                    if (ftell(file) != 0) break;
                } else {
                    fclose(file);
                    file = NULL;
                }
            }
        }
        /* Silence: an unmodulated carrier sits at the middle of the unsigned range. */
        for (size_t i = filled; i < buf_len; i++) buffer[i] = (unsigned char)(127 + (i & 1));
        cb(buffer, buf_len, ctx);
        delivered += buf_len;
        double due = start + delivered / bytes_per_second;
        double wait = due - now_seconds();
        if (realtime && wait > 0) usleep((useconds_t)(wait * 1e6));
        else if (!file && !realtime) usleep(20000); /* do not spin on silence */
    }
    if (file) fclose(file);
    free(floats);
    free(buffer);
    return status;
}
