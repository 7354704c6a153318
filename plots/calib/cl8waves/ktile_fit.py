# A cluster of 8's k-tile from h100_cl8_plans.txt: (time - launch) / waves - piece, per k-tile, and how
# far it lies above the MMAs at the tensor cores' peak (517.2 ns per 128 x 256 x 64). Plans of 40 or
# more k-tiles, not 2864 x 2048 x 15072 (its operands re-read from DRAM). usage: python3 ktile_fit.py
import statistics
rows = []
for l in open('h100_cl8_plans.txt'):
    if l.startswith('#'): continue
    a = l.split(); t = float(a[4]); pairs, cl, kt, bm, bn = map(int, a[5:10]); piece = float(a[10])
    waves = -(-pairs // cl); r = bm * bn / (128 * 256)
    per = (t - 6039.1 - waves * piece) / (waves * kt)
    if kt >= 40 and a[:3] != ['2864', '2048', '15072']:
        rows.append((waves, bn, ' '.join(a[:4]), kt, per, per - 517.2 * r))
for w, bn, name, kt, per, c in sorted(rows):
    print('%-34s waves %d k-tiles %3d  %4.0f ns a k-tile, %4.0f over the peak' % (name, w, kt, per, c))
for one in (True, False):
    cs = [c for w, bn, n, kt, p, c in rows if (w == 1) == one]
    if cs: print('%s: %d plans, over the peak %.0f-%.0f ns, median %.0f' % ('one wave' if one else 'past one wave', len(cs), min(cs), max(cs), statistics.median(cs)))
