# A fake `epdconfig` for Waveshare's Python drivers (waveshare_epd/epd*.py): it stands in for the real epdconfig.py
# (spidev + gpiozero) and records what a logic analyser on the HAT's header would decode, in outfit-display's capture
# format (src/epd/capture-bus.ts):
#   {"op":"reset"}                      RST pulsed low and back high
#   {"op":"cmd","cmd":N,"data":"hex"}   a byte sent with DC low, and the bytes sent with DC high after it
#   {"op":"busy"}                       a wait on BUSY (the vendor's ReadBusy loop, folded into one op); a status
#                                       poll the loop sends before each read (UC8179: 0x71) is folded into it too
# Our code, no vendor code: the runners (ssd168x_capture.py, uc8179_capture.py, colour_capture.py) copy it next to the
# vendor's driver as `epdconfig.py` and call configure() with the controller's BUSY polarity.
# Each wait here reads busy `polls_busy` times, then idle, so the vendor's poll loop really runs.

RST_PIN = 17
DC_PIN = 25
CS_PIN = 8
BUSY_PIN = 24
PWR_PIN = 18
MOSI_PIN = 10
SCLK_PIN = 11

ops = []          # the capture so far, as dicts
polls = 0         # status polls folded away (for the runner's summary)
_level = {RST_PIN: 1, DC_PIN: 0, CS_PIN: 1, PWR_PIN: 0}
_rst_went_low = False
_busy_reads = 0   # busy reads in the current wait
_busy_level = 1   # what BUSY reads while busy: 1 on the SSD1680/SSD1683, 0 on the UC8179 and the ACeP
_status_poll = None  # the command sent before each read of BUSY, folded into the wait (UC8179: 0x71)
_polls_busy = 2   # busy reads per wait before idle


def configure(busy_level, status_poll=None, polls_busy=2):
    """The controller's BUSY: the level it reads while busy, the status command its ReadBusy polls with, if any."""
    global _busy_level, _status_poll, _polls_busy
    _busy_level = busy_level
    _status_poll = status_poll
    _polls_busy = polls_busy


def _byte(v):
    # spidev casts each list item to __u8 (py-spidev: `(__u8)PyLong_AS_LONG(val)`), so ~x goes out as x ^ 0xFF.
    if not isinstance(v, int):
        raise TypeError('not an int: %r' % (v,))
    return v & 0xFF


def _write(values):
    values = [_byte(v) for v in values]
    if _level[DC_PIN] == 0:
        for v in values:
            ops.append({'op': 'cmd', 'cmd': v, 'data': bytearray()})
    else:
        if not ops or ops[-1]['op'] != 'cmd':
            raise RuntimeError('data bytes with no command before them')
        ops[-1]['data'].extend(values)


def digital_write(pin, value):
    global _rst_went_low
    value = 1 if value else 0
    if pin == RST_PIN:
        if value == 0:
            _rst_went_low = True
        elif _rst_went_low:
            _rst_went_low = False
            ops.append({'op': 'reset'})
    _level[pin] = value


def digital_read(pin):
    global _busy_reads, polls
    if pin != BUSY_PIN:
        return _level.get(pin, 0)
    # A status command sent before this read of BUSY belongs to the wait.
    if _status_poll is not None and ops and ops[-1]['op'] == 'cmd' and ops[-1]['cmd'] == _status_poll and len(ops[-1]['data']) == 0:
        ops.pop()
        polls += 1
    if _busy_reads == 0:
        ops.append({'op': 'busy'})
    if _busy_reads < _polls_busy:
        _busy_reads += 1
        return _busy_level
    _busy_reads = 0
    return 1 - _busy_level


def delay_ms(delaytime):
    pass


def spi_writebyte(data):
    _write(data)


def spi_writebyte2(data):
    _write(data)


class _Spi:
    """epd7in5_V2.py calls epdconfig.SPI.writebytes2 directly."""

    max_speed_hz = 4000000
    mode = 0

    def writebytes(self, data):
        _write(data)

    def writebytes2(self, data):
        _write(data)

    def open(self, bus, device):
        pass

    def close(self):
        pass


SPI = _Spi()


def module_init(cleanup=False):
    _level[PWR_PIN] = 1
    return 0


def module_exit(cleanup=False):
    # The real one drops RST, DC and PWR: RST low with no rising edge after it is no reset pulse.
    digital_write(RST_PIN, 0)
    digital_write(DC_PIN, 0)
    digital_write(PWR_PIN, 0)


def reset_capture():
    """A fresh capture (one per frame), as in a freshly started process: the lines back to power-on levels."""
    global polls, _rst_went_low, _busy_reads
    ops.clear()
    polls = 0
    _rst_went_low = False
    _busy_reads = 0
    _level.update({RST_PIN: 1, DC_PIN: 0, CS_PIN: 1, PWR_PIN: 0})


def jsonl():
    import json
    out = []
    for op in ops:
        if op['op'] == 'cmd':
            out.append(json.dumps({'op': 'cmd', 'cmd': op['cmd'], 'data': bytes(op['data']).hex()}, separators=(',', ':')))
        else:
            out.append(json.dumps({'op': op['op']}, separators=(',', ':')))
    return ''.join(line + '\n' for line in out)
