#!/usr/bin/python3
"""Reference command streams of the colour panels, made by running the VENDORS' OWN python drivers under fakes.

  waveshare-7in3-f      Waveshare e-Paper RaspberryPi_JetsonNano/python/lib/waveshare_epd/epd7in3f.py:
                        EPD().init(); display(getbuffer(frame)); sleep()
  inky-impression-7in3  Pimoroni inky inky/inky_e673.py: Inky().set_image(frame); show()

The vendor code is NOT in this repository: it is read from the fetched mirrors (bare git directories) into a
temporary directory at run time. What is ours: the fakes (fake_epdconfig.py for Waveshare, the Inky's below), which
stand where the SPI and GPIO libraries are and record what a logic analyser on the header would decode, in the
capture format of src/epd/capture-bus.ts:
  {"op":"reset"}  RST pulled low (once a pulse)
  {"op":"cmd","cmd":N,"data":"<hex>"}  a byte with DC low, then the bytes with DC high up to the next command
  {"op":"busy"}   the driver reads BUSY (consecutive reads, the vendor's polls, are one wait); BUSY answers busy
                  once, then idle, in each wait, so the vendor's poll loops run.
Delays (time.sleep, epdconfig.delay_ms) do not wait.

Not run by CI: the fixtures are stored (test/epd/vendor/<panel>-<frame>.jsonl.gz). Debian's python3 with PIL and
numpy is enough (/usr/bin/python3). Run from the repository root:
  /usr/bin/python3 test/tools/vendor-capture/colour_capture.py \
      --waveshare /work/.mirror/waveshareteam+e-Paper/repo --inky /work/.mirror/pimoroni+inky/repo
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
import types

FRAMES = ["normal", "long", "error"]
WAVESHARE_FILE = "RaspberryPi_JetsonNano/python/lib/waveshare_epd/epd7in3f.py"
INKY_FILES = ["inky/inky_e673.py", "inky/eeprom.py"]


class Recorder:
    """Turns pin levels and SPI bytes into capture operations."""

    def __init__(self):
        self.ops = []
        self.dc = 0
        self.current = None  # the command whose data is being sent

    def reset(self):
        self._close()
        self.ops.append({"op": "reset"})

    def busy(self):
        self._close()
        if not self.ops or self.ops[-1]["op"] != "busy":
            self.ops.append({"op": "busy"})

    def spi(self, data):
        data = list(data)
        if self.dc == 0:
            for byte in data:  # every byte sent with DC low is a command
                self._close()
                self.current = {"op": "cmd", "cmd": byte, "data": bytearray()}
        else:
            if self.current is None:
                raise RuntimeError("data with no command before it")
            self.current["data"].extend(data)

    def _close(self):
        if self.current is not None:
            self.ops.append({"op": "cmd", "cmd": self.current["cmd"], "data": self.current["data"].hex()})
            self.current = None

    def text(self):
        self._close()
        return "".join(json.dumps(op, separators=(",", ":")) + "\n" for op in self.ops)


def git_show(mirror, path):
    return subprocess.run(["git", "-C", mirror, "show", f"HEAD:{path}"], check=True, capture_output=True).stdout


def git_commit(mirror):
    return subprocess.run(["git", "-C", mirror, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()


def package(name, directory):
    """An empty package named `name` whose submodules load from `directory` (its __init__ is not run)."""
    mod = types.ModuleType(name)
    mod.__path__ = [directory]
    sys.modules[name] = mod


def fake_epdconfig():
    """Waveshare's epdconfig as the driver sees it: the shared fake (fake_epdconfig.py, next to this file), with
    epd7in3f.ReadBusyH's polarity (0 busy, 1 idle) and BUSY busy once, then idle, in each wait."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("waveshare_epd.epdconfig", os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_epdconfig.py"))
    cfg = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cfg)
    cfg.configure(busy_level=0, polls_busy=1)
    return cfg


def run_waveshare(mirror, tmp, frames_dir):
    from PIL import Image

    directory = os.path.join(tmp, "waveshare_epd")
    os.makedirs(directory)
    with open(os.path.join(directory, "epd7in3f.py"), "wb") as f:
        f.write(git_show(mirror, WAVESHARE_FILE))
    package("waveshare_epd", directory)
    out = {}
    for frame in FRAMES:
        cfg = fake_epdconfig()
        sys.modules["waveshare_epd.epdconfig"] = cfg
        sys.modules.pop("waveshare_epd.epd7in3f", None)
        import importlib
        epd7in3f = importlib.import_module("waveshare_epd.epd7in3f")
        epd = epd7in3f.EPD()
        image = Image.open(os.path.join(frames_dir, f"waveshare-7in3-f-{frame}.png"))
        epd.init()
        epd.display(epd.getbuffer(image))
        epd.sleep()
        out[frame] = cfg.jsonl()
    return out


class Value:
    INACTIVE = 0
    ACTIVE = 1


def fake_inky_modules(rec):
    """gpiod (v2 API), gpiodevice and spidev as inky_e673 uses them, and an absent EEPROM (smbus2)."""
    gpiod = types.ModuleType("gpiod")
    line = types.ModuleType("gpiod.line")
    line.Value = Value
    line.Direction = types.SimpleNamespace(OUTPUT="out", INPUT="in")
    line.Bias = types.SimpleNamespace(DISABLED="off", PULL_UP="up")
    gpiod.line = line
    gpiod.LineSettings = lambda **kw: kw
    pins = {}

    class Lines:
        def __init__(self, config):
            for offset, settings in config.items():
                pins[offset] = settings.get("output_value", Value.INACTIVE)

        def set_value(self, offset, value):
            if offset == pins["reset"] and value == Value.INACTIVE and pins[offset] == Value.ACTIVE:
                rec.reset()
            if offset == pins["dc"]:
                rec.dc = value
            pins[offset] = value

        def get_value(self, offset):
            if offset != pins["busy"]:
                raise RuntimeError(f"read of line {offset}")
            rec.busy()
            # inky_e673._busy_wait: low is busy; high at the FIRST read means "no panel", it then sleeps the whole
            # timeout. Answer low once, then high: the loop ends after one poll, as with a panel that finishes.
            pins["busy_reads"] = pins.get("busy_reads", 0) + 1
            return Value.INACTIVE if pins["busy_reads"] % 2 == 1 else Value.ACTIVE

    class Chip:
        def line_offset_from_id(self, pin):
            return pin

        def request_lines(self, consumer, config):
            return Lines(config)

    gpiodevice = types.ModuleType("gpiodevice")
    gpiodevice.find_chip_by_platform = lambda: Chip()
    gpiodevice.check_pins_available = lambda chip, pins_: True

    spidev = types.ModuleType("spidev")

    class SpiDev:
        max_speed_hz = 0

        def open(self, bus, device):
            pass

        def xfer3(self, values):
            rec.spi(values)

    spidev.SpiDev = SpiDev
    return {"gpiod": gpiod, "gpiod.line": line, "gpiodevice": gpiodevice, "spidev": spidev}, pins


def fake_smbus2():
    """No EEPROM answers at 0x50 (errno 121, as the kernel says): read_eeprom gives None, and the driver its default."""
    smbus2 = types.ModuleType("smbus2")

    class SMBus:
        def __init__(self, bus):
            pass

        def write_i2c_block_data(self, *args):
            raise OSError(121, "Remote I/O error")

    smbus2.SMBus = SMBus
    return smbus2


def run_inky(mirror, tmp, frames_dir):
    from PIL import Image
    import importlib

    directory = os.path.join(tmp, "inky")
    os.makedirs(directory)
    for path in INKY_FILES:
        with open(os.path.join(tmp, path), "wb") as f:
            f.write(git_show(mirror, path))
    package("inky", directory)
    sys.modules["smbus2"] = fake_smbus2()
    out = {}
    real_sleep = time.sleep
    time.sleep = lambda s: None  # inky_e673 sleeps 0.3 s before each command
    try:
        for frame in FRAMES:
            rec = Recorder()
            modules, pins = fake_inky_modules(rec)
            sys.modules.update(modules)
            sys.modules.pop("inky.inky_e673", None)
            e673 = importlib.import_module("inky.inky_e673")
            pins.update(reset=e673.RESET_PIN, dc=e673.DC_PIN, busy=e673.BUSY_PIN)
            inky = e673.Inky()
            inky.set_image(Image.open(os.path.join(frames_dir, f"inky-impression-7in3-{frame}.png")))
            inky.show()
            out[frame] = rec.text()
    finally:
        time.sleep = real_sleep
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--waveshare", help="the waveshareteam/e-Paper mirror (a git directory)")
    ap.add_argument("--inky", help="the pimoroni/inky mirror (a git directory)")
    ap.add_argument("--frames", default="test/epd/frames")
    ap.add_argument("--out", default="test/epd/vendor")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="vendor-colour-") as tmp:
        runs = []
        if args.waveshare:
            runs.append(("waveshare-7in3-f", args.waveshare, run_waveshare))
        if args.inky:
            runs.append(("inky-impression-7in3", args.inky, run_inky))
        for panel, mirror, run in runs:
            for frame, text in run(mirror, tmp, args.frames).items():
                path = os.path.join(args.out, f"{panel}-{frame}.jsonl.gz")
                with open(path, "wb") as f:
                    # mtime 0: the same stream gives the same file
                    f.write(gzip.compress(text.encode(), mtime=0))
                print(f"{path}: {text.count(chr(10))} ops, vendor commit {git_commit(mirror)}")


if __name__ == "__main__":
    main()
