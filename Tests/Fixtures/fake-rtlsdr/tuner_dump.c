/*
 * Writes what the fake librtlsdr's tuner model makes of a cf32 sky at one fixed gain, as cu8
 * on standard output: the fixed-gain side of the adaptive-gain bench (scripts/bench-gain.sh),
 * through the very model the daemon meets. Links against the fake (fake_rtlsdr.c).
 *
 *   AVIATOR_FAKE_RTLSDR_IQ=sky.cf32 AVIATOR_FAKE_RTLSDR_CF32=1 tuner_dump GAIN_DB > sky-at-GAIN.cu8
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

typedef struct rtlsdr_dev rtlsdr_dev_t;
int rtlsdr_open(rtlsdr_dev_t **dev, uint32_t index);
int rtlsdr_close(rtlsdr_dev_t *dev);
int rtlsdr_set_sample_rate(rtlsdr_dev_t *dev, uint32_t rate);
int rtlsdr_set_tuner_gain_mode(rtlsdr_dev_t *dev, int manual);
int rtlsdr_set_tuner_gain(rtlsdr_dev_t *dev, int gain);
int rtlsdr_cancel_async(rtlsdr_dev_t *dev);
int rtlsdr_read_async(rtlsdr_dev_t *dev, void (*cb)(unsigned char *, uint32_t, void *), void *ctx,
                      uint32_t buf_num, uint32_t buf_len);

struct dump {
    rtlsdr_dev_t *dev;
    long long remaining; /* cu8 bytes the file holds */
};

static void write_block(unsigned char *buffer, uint32_t length, void *context) {
    struct dump *dump = context;
    if (dump->remaining <= 0) return;
    size_t take = (long long)length < dump->remaining ? length : (size_t)dump->remaining;
    fwrite(buffer, 1, take, stdout);
    dump->remaining -= (long long)take;
    if (dump->remaining <= 0) rtlsdr_cancel_async(dump->dev);
}

int main(int argc, char **argv) {
    const char *path = getenv("AVIATOR_FAKE_RTLSDR_IQ");
    struct stat info;
    if (argc != 2 || !path || stat(path, &info) != 0) {
        fprintf(stderr, "usage: AVIATOR_FAKE_RTLSDR_IQ=FILE.cf32 AVIATOR_FAKE_RTLSDR_CF32=1 tuner_dump GAIN_DB\n");
        return 2;
    }
    struct dump dump = {0, (long long)info.st_size / 4};
    if (rtlsdr_open(&dump.dev, 0) != 0) return 1;
    rtlsdr_set_sample_rate(dump.dev, 2400000);
    rtlsdr_set_tuner_gain_mode(dump.dev, 1);
    rtlsdr_set_tuner_gain(dump.dev, (int)(atof(argv[1]) * 10 + (atof(argv[1]) < 0 ? -0.5 : 0.5)));
    int status = rtlsdr_read_async(dump.dev, write_block, &dump, 0, 1 << 20);
    rtlsdr_close(dump.dev);
    return status == 0 ? 0 : 1;
}
