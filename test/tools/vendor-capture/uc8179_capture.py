#!/usr/bin/env python3
# Makes the reference streams of the UC8179 panels (test/epd/vendor/<panel>-<frame>.jsonl.gz) by RUNNING Waveshare's
# own Python drivers under a fake epdconfig (fake_epdconfig.py) for the frames in test/epd/frames/:
#   waveshare-7in5-v2: epd7in5_V2.py   init(); display(getbuffer(frame)); sleep()
#   waveshare-7in5-b:  epd7in5b_V2.py  init(); display(getbuffer(black), getbuffer(red)); sleep()
# where for the B the frame's black pixels are drawn black on a white 1-bit `black` picture and its red pixels black
# on a white 1-bit `red` picture, as Waveshare's examples draw the two pictures.
# The vendor's code is read from a clone of https://github.com/waveshareteam/e-Paper into a temporary folder and never
# into this repository. Not run by CI. Needs Debian's python3 with PIL (python3-pil). Run from the repository root:
#   /usr/bin/python3 test/tools/vendor-capture/uc8179_capture.py /work/.mirror/waveshareteam+e-Paper/repo
# (the argument: a clone or bare git directory of the e-Paper repository; the fixtures were made at commit 86aa993).
import gzip
import importlib
import os
import shutil
import subprocess
import sys
import tempfile

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..', '..'))
VENDOR_DIR = 'RaspberryPi_JetsonNano/python/lib/waveshare_epd'
PANELS = {'waveshare-7in5-v2': 'epd7in5_V2', 'waveshare-7in5-b': 'epd7in5b_V2'}
FRAMES = ['normal', 'long', 'error']


def extract(repo, dest):
    """The two vendor drivers from the clone, into a package whose epdconfig is our fake."""
    pkg = os.path.join(dest, 'waveshare_epd')
    os.makedirs(pkg)
    commit = subprocess.check_output(['git', '-C', repo, 'rev-parse', 'HEAD'], text=True).strip()
    for module in PANELS.values():
        src = subprocess.check_output(['git', '-C', repo, 'show', 'HEAD:%s/%s.py' % (VENDOR_DIR, module)])
        with open(os.path.join(pkg, module + '.py'), 'wb') as f:
            f.write(src)
    shutil.copy(os.path.join(HERE, 'fake_epdconfig.py'), os.path.join(pkg, 'epdconfig.py'))
    open(os.path.join(pkg, '__init__.py'), 'w').close()
    return commit


def planes_of_b(frame):
    """The B's frame (indexed: 0 black, 1 white, 2 red, the profile's order) as Waveshare's two 1-bit pictures."""
    black = Image.new('1', frame.size, 255)
    red = Image.new('1', frame.size, 255)
    px, bk, rd = frame.load(), black.load(), red.load()
    for y in range(frame.size[1]):
        for x in range(frame.size[0]):
            v = px[x, y]
            if v == 0:
                bk[x, y] = 0
            elif v == 2:
                rd[x, y] = 0
    return black, red


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: uc8179_capture.py <clone of waveshareteam/e-Paper>')
    tmp = tempfile.mkdtemp(prefix='vendor-uc8179-')
    try:
        commit = extract(sys.argv[1], tmp)
        sys.path.insert(0, tmp)
        epdconfig = importlib.import_module('waveshare_epd.epdconfig')
        # BUSY is low while busy; ReadBusy sends 0x71 (get status) before each read.
        epdconfig.configure(busy_level=0, status_poll=0x71)
        for panel, module in PANELS.items():
            driver = importlib.import_module('waveshare_epd.' + module)
            for name in FRAMES:
                frame = Image.open(os.path.join(ROOT, 'test', 'epd', 'frames', '%s-%s.png' % (panel, name)))
                epdconfig.reset_capture()
                epd = driver.EPD()
                epd.init()
                if panel == 'waveshare-7in5-b':
                    black, red = planes_of_b(frame)
                    epd.display(epd.getbuffer(black), epd.getbuffer(red))
                else:
                    epd.display(epd.getbuffer(frame))
                epd.sleep()
                text = epdconfig.jsonl()
                out = os.path.join(ROOT, 'test', 'epd', 'vendor', '%s-%s.jsonl.gz' % (panel, name))
                with open(out, 'wb') as raw:
                    # mtime 0 and no name: the same stream gives the same file.
                    with gzip.GzipFile(filename='', mode='wb', fileobj=raw, mtime=0) as gz:
                        gz.write(text.encode('ascii'))
                sent = sum(1 + len(op['data']) for op in epdconfig.ops if op['op'] == 'cmd')
                print('%s %s: %d ops, %d bytes sent (commands + data), %d status polls folded; vendor %s/%s.py @ %s'
                      % (panel, name, len(epdconfig.ops), sent, epdconfig.polls, VENDOR_DIR, module, commit[:7]))
    finally:
        shutil.rmtree(tmp)


main()
