#!/usr/bin/env python3
"""A stand-in for rtl_tcp, serving the fake librtlsdr (fake_rtlsdr.c) over rtl_tcp's protocol,
so that the daemon's --rtltcp path meets the same dongle, tuner model included, as its local
path: the greeting ("RTL0", an R820T, 29 gains), the 5-byte commands applied to the fake
(sample rate, gain mode, gain), and the samples streamed as the fake delivers them. The fake's
environment variables (AVIATOR_FAKE_RTLSDR_*) set what it streams.

    rtl_tcp_fake.py LIBRTLSDR_PATH   (prints the port it listens on, serves one client)
"""
import ctypes
import socket
import struct
import sys
import threading


def main():
    lib = ctypes.CDLL(sys.argv[1])
    device = ctypes.c_void_p()
    if lib.rtlsdr_open(ctypes.byref(device), 0) != 0:
        sys.exit("rtl_tcp_fake: the fake has no device")
    lib.rtlsdr_set_sample_rate(device, 2_400_000)
    server = socket.create_server(("127.0.0.1", 0))
    print(server.getsockname()[1], flush=True)
    client, _ = server.accept()
    client.sendall(b"RTL0" + struct.pack(">II", 5, 29))

    def commands():
        buffered = b""
        while True:
            data = client.recv(64)
            if not data:
                break
            buffered += data
            while len(buffered) >= 5:
                command, argument = buffered[0], struct.unpack(">i", buffered[1:5])[0]
                buffered = buffered[5:]
                if command == 2:
                    lib.rtlsdr_set_sample_rate(device, argument)
                elif command == 3:
                    lib.rtlsdr_set_tuner_gain_mode(device, argument)
                elif command == 4:
                    lib.rtlsdr_set_tuner_gain(device, argument)
        lib.rtlsdr_cancel_async(device)

    threading.Thread(target=commands, daemon=True).start()
    callback_type = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_ubyte), ctypes.c_uint32, ctypes.c_void_p)

    def deliver(buffer, length, _context):
        try:
            client.sendall(ctypes.string_at(buffer, length))
        except OSError:
            lib.rtlsdr_cancel_async(device)

    callback = callback_type(deliver)
    lib.rtlsdr_read_async(device, callback, None, 0, 1 << 18)
    client.close()


if __name__ == "__main__":
    main()
