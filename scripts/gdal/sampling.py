"""Reference sampling of a north-up raster grid, written out so every rule is visible.

Shared by scripts/fixtures/make-fixtures.py and scripts/gdal/reference.py. Conventions follow GDAL:
the geotransform is corner-based (GDAL has already applied the PixelIsPoint half-pixel shift), pixel
(col, row) covers [x0 + col*dx, x0 + (col+1)*dx) and its centre is at col + 0.5 in pixel space.
"""

import math

import numpy as np


def pixel_space(gt, x, y):
    """Fractional pixel coordinates (px, py); the centre of pixel (0, 0) is (0.5, 0.5)."""
    return (x - gt[0]) / gt[1], (y - gt[3]) / gt[5]


def nearest_index(gt, shape, x, y):
    """The pixel GDAL's gdallocationinfo reads (floor in pixel space), or None outside the raster."""
    px, py = pixel_space(gt, x, y)
    col, row = math.floor(px), math.floor(py)
    if 0 <= col < shape[1] and 0 <= row < shape[0]:
        return col, row
    return None


def _window(values, px, py, radius):
    """The (2*radius)^2 pixels around a point and the fractional offsets, or None if it leaves the grid."""
    c0 = math.floor(px - 0.5) - (radius - 1)
    r0 = math.floor(py - 0.5) - (radius - 1)
    size = 2 * radius
    if c0 < 0 or r0 < 0 or c0 + size > values.shape[1] or r0 + size > values.shape[0]:
        return None
    win = values[r0 : r0 + size, c0 : c0 + size].astype(np.float64)
    return win, (px - 0.5) - math.floor(px - 0.5), (py - 0.5) - math.floor(py - 0.5)


def window_status(values, gt, x, y, radius):
    """'inside', 'nodata' (the window holds a NaN) or 'outside' (the window leaves the grid)."""
    w = _window(values, *pixel_space(gt, x, y), radius)
    if w is None:
        return "outside"
    return "nodata" if np.isnan(w[0]).any() else "inside"


def bilinear(values, gt, x, y):
    """Bilinear from the 2x2 pixel centres around (x, y); None when the window leaves the grid or holds
    nodata (NaN in `values`). That strict rule is what the expected values assume."""
    w = _window(values, *pixel_space(gt, x, y), 1)
    if w is None or np.isnan(w[0]).any():
        return None
    win, fx, fy = w
    top = win[0, 0] * (1 - fx) + win[0, 1] * fx
    bottom = win[1, 0] * (1 - fx) + win[1, 1] * fx
    return float(top * (1 - fy) + bottom * fy)


def _keys(t, a=-0.5):
    """Keys cubic convolution weights for offsets -1, 0, 1, 2 (a = -0.5 reproduces planes exactly)."""
    def k(s):
        s = abs(s)
        if s <= 1:
            return (a + 2) * s**3 - (a + 3) * s**2 + 1
        if s < 2:
            return a * s**3 - 5 * a * s**2 + 8 * a * s - 4 * a
        return 0.0

    return np.array([k(t + 1), k(t), k(1 - t), k(2 - t)])


def cubic(values, gt, x, y):
    """Keys (a=-0.5) cubic from the 4x4 pixels around (x, y); None when the window leaves the grid or
    holds nodata."""
    w = _window(values, *pixel_space(gt, x, y), 2)
    if w is None or np.isnan(w[0]).any():
        return None
    win, fx, fy = w
    return float(_keys(fy) @ win @ _keys(fx))


# --- the elevation library's nodata/edge policy (layers/elevation/dataset/interpolation.ts) ------------
MIN_VALID_WEIGHT = 1e-9


def _padded_window(values, px, py, radius):
    """Like _window, but pixels outside the grid are NaN instead of refusing the window."""
    c0 = math.floor(px - 0.5) - (radius - 1)
    r0 = math.floor(py - 0.5) - (radius - 1)
    size = 2 * radius
    win = np.full((size, size), np.nan)
    for j in range(size):
        for i in range(size):
            r, c = r0 + j, c0 + i
            if 0 <= r < values.shape[0] and 0 <= c < values.shape[1]:
                win[j, i] = values[r, c]
    return win, (px - 0.5) - math.floor(px - 0.5), (py - 0.5) - math.floor(py - 0.5)


def bilinear_renormalised(values, gt, x, y):
    """Bilinear over the valid pixels of the 2x2 window, weights renormalised; None when the pixel containing
    the point is nodata (GDAL's warper skips those) or the valid pixels carry no weight."""
    win, fx, fy = _padded_window(values, *pixel_space(gt, x, y), 1)
    if np.isnan(win[1 if fy >= 0.5 else 0, 1 if fx >= 0.5 else 0]):
        return None
    weights = np.array([[(1 - fx) * (1 - fy), fx * (1 - fy)], [(1 - fx) * fy, fx * fy]])
    valid = ~np.isnan(win)
    total = weights[valid].sum()
    if total <= MIN_VALID_WEIGHT:
        return None
    return float((win[valid] * weights[valid]).sum() / total)


def cubic_at_edge(values, gt, x, y):
    """Where the 4x4 window leaves the grid (whole rows or columns of it outside): Keys cubic over the rows and
    columns inside, each axis's weights renormalised, as GDAL's RasterIO clamps its kernel at a raster's edge;
    None inside the grid, or when a pixel kept holds nodata."""
    px, py = pixel_space(gt, x, y)
    c0 = math.floor(px - 0.5) - 1
    r0 = math.floor(py - 0.5) - 1
    cols = np.array([0 <= c0 + i < values.shape[1] for i in range(4)])
    rows = np.array([0 <= r0 + j < values.shape[0] for j in range(4)])
    if cols.all() and rows.all():
        return None
    win, fx, fy = _padded_window(values, px, py, 2)
    kept = win[rows][:, cols]
    if np.isnan(kept).any():
        return None
    kx, ky = _keys(fx)[cols], _keys(fy)[rows]
    return float((ky / ky.sum()) @ kept @ (kx / kx.sum()))


def cubic_or_bilinear(values, gt, x, y):
    """Keys cubic when all 16 pixels are valid and inside; at the grid's edge the renormalised cubic
    (cubic_at_edge); otherwise the renormalised bilinear."""
    value = cubic(values, gt, x, y)
    if value is None:
        value = cubic_at_edge(values, gt, x, y)
    return value if value is not None else bilinear_renormalised(values, gt, x, y)
