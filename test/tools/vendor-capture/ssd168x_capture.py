#!/usr/bin/python3
# Makes the reference streams of the SSD1680 / SSD1683 panels (test/epd/vendor/<panel>-<case>.jsonl.gz) by RUNNING
# Waveshare's own Python drivers under a fake epdconfig (fake_epdconfig.py) that records the capture format:
#   init(); display(getbuffer(Image.open(frame.png))); sleep()
# for each stored frame test/epd/frames/<panel>-<case>.png. No vendor code lives in this repository: the driver is
# taken from a checkout of https://github.com/waveshareteam/e-Paper (the fixtures were made at commit 86aa993).
#
#   git -C <e-Paper git dir> archive HEAD RaspberryPi_JetsonNano/python/lib/waveshare_epd | tar -x -C /tmp/vendor-ssd
#   /usr/bin/python3 test/tools/vendor-capture/ssd168x_capture.py /tmp/vendor-ssd/RaspberryPi_JetsonNano/python/lib
#
# Needs Debian's python3 with PIL (python3-pil). Not run by CI.
import gzip
import importlib
import os
import shutil
import sys
import tempfile
import types

PANELS = {
    'waveshare-2in13': 'epd2in13_V4',
    'waveshare-2in9': 'epd2in9_V2',
    'waveshare-4in2': 'epd4in2_V2',
}
CASES = ['normal', 'long', 'error']

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.abspath(os.path.join(here, '..', '..', '..'))


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: ssd168x_capture.py <dir holding waveshare_epd/>')
    vendor_lib = sys.argv[1]
    from PIL import Image

    # epd4in2_V2.py imports RPi.GPIO without using it: an empty stand-in.
    rpi = types.ModuleType('RPi')
    rpi.GPIO = types.ModuleType('RPi.GPIO')
    sys.modules['RPi'] = rpi
    sys.modules['RPi.GPIO'] = rpi.GPIO

    work = tempfile.mkdtemp(prefix='ssd168x-capture-')
    pkg = os.path.join(work, 'waveshare_epd')
    os.mkdir(pkg)
    open(os.path.join(pkg, '__init__.py'), 'w').close()
    shutil.copy(os.path.join(here, 'fake_epdconfig.py'), os.path.join(pkg, 'epdconfig.py'))
    for module in PANELS.values():
        shutil.copy(os.path.join(vendor_lib, 'waveshare_epd', module + '.py'), pkg)
    sys.path.insert(0, work)
    epdconfig = importlib.import_module('waveshare_epd.epdconfig')
    epdconfig.configure(busy_level=1)  # BUSY is high while busy

    for panel, module in PANELS.items():
        driver = importlib.import_module('waveshare_epd.' + module)
        for case in CASES:
            epdconfig.reset_capture()  # each reference stream is the first refresh after start
            frame = os.path.join(root, 'test', 'epd', 'frames', '%s-%s.png' % (panel, case))
            epd = driver.EPD()
            if epd.init() != 0:
                sys.exit('%s: init() failed' % module)
            epd.display(epd.getbuffer(Image.open(frame)))
            epd.sleep()
            text = epdconfig.jsonl()
            out = os.path.join(root, 'test', 'epd', 'vendor', '%s-%s.jsonl.gz' % (panel, case))
            # mtime 0: the same stream gives the same file.
            with open(out, 'wb') as raw, gzip.GzipFile(filename='', mode='wb', fileobj=raw, mtime=0) as gz:
                gz.write(text.encode('ascii'))
            sent = sum(1 + len(op['data']) for op in epdconfig.ops if op['op'] == 'cmd')
            print('%s: %d ops, %d bytes sent' % (out, len(epdconfig.ops), sent))
    shutil.rmtree(work)


main()
