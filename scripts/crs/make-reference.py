#!/usr/bin/env python3
"""Writes src/test/resources/crs/reference-points.csv: points in each tested source CRS and
their EPSG:4326 longitude/latitude as computed by PROJ (cs2cs).

Deterministic: the points are a Halton sequence (bases 2 and 3) spread over a box inside each
CRS's area of use, projected into the CRS by PROJ and rounded (millimetre for projected CRSs,
1e-9 degree for geographic ones); that rounded source coordinate is the test input, and PROJ's
inverse of it, at 10 decimals, is the reference.

What the reference means: PROJ's best transformation that needs no grid file. The script hides
every grid from PROJ (a private PROJ_DATA holding only proj.db, no network, no user directory),
so on any machine PROJ picks the same EPSG Helmert or null transformation, never a grid
(OSTN15, rdtrans2018, NADCON5) that proj4j could not apply anyway. The operation PROJ picked for
each CRS is written into the CSV header.

Needs: cs2cs and projinfo (Debian: apt-get install -y proj-bin). Run from the repository root:
    python3 scripts/crs/make-reference.py
"""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

OUT = "src/test/resources/crs/reference-points.csv"
POINTS_PER_CRS = 24

# (source CRS, (west, south, east, north) in degrees, kept inside the CRS's area of use)
CRSS = [
    ("EPSG:3857", (-179.0, -84.0, 179.0, 84.0)),
    ("EPSG:27700", (-5.6, 50.1, 1.7, 58.6)),
    ("EPSG:2154", (-4.6, 42.4, 8.1, 51.0)),
    ("EPSG:25832", (6.1, 47.3, 11.9, 57.5)),
    ("EPSG:32633", (12.1, 0.5, 17.9, 83.5)),
    ("EPSG:3035", (-10.0, 35.0, 31.0, 70.0)),
    ("EPSG:2263", (-74.25, 40.48, -71.86, 41.29)),
    ("EPSG:28992", (3.4, 50.76, 7.2, 53.5)),
    ("EPSG:4269", (-124.5, 25.0, -60.0, 55.0)),
    ("EPSG:3006", (11.2, 55.4, 23.8, 68.9)),
    ("EPSG:2193", (166.5, -47.2, 178.5, -34.5)),
    ("EPSG:31370", (2.6, 49.55, 6.35, 51.45)),
    ("EPSG:5070", (-124.5, 25.0, -67.0, 49.0)),
    # Esri-only wkids the resolver defines itself (src/main/resources/crs/definitions.properties)
    ("ESRI:102003", (-124.5, 25.0, -67.0, 49.0)),
    ("ESRI:102004", (-124.5, 25.0, -67.0, 49.0)),
    ("ESRI:102008", (-130.0, 20.0, -60.0, 60.0)),
    ("ESRI:102009", (-130.0, 20.0, -60.0, 60.0)),
    ("ESRI:102039", (-124.5, 25.0, -67.0, 49.0)),
    # Further CRSs providers use, kept as regression guards for proj4j-epsg's definitions
    ("EPSG:4258", (-10.0, 35.0, 31.0, 70.0)),
    ("EPSG:3395", (-179.0, -80.0, 179.0, 84.0)),
    ("EPSG:25833", (12.1, 46.5, 17.9, 60.0)),
    ("EPSG:32618", (-77.9, 0.5, -72.1, 83.0)),
    ("EPSG:26918", (-78.0, 35.0, -72.0, 45.0)),
    ("EPSG:2227", (-123.0, 36.8, -120.0, 38.7)),
    ("EPSG:3347", (-140.0, 42.0, -53.0, 70.0)),
    ("EPSG:2056", (6.0, 45.9, 10.4, 47.7)),
    ("EPSG:21781", (6.0, 45.9, 10.4, 47.7)),
    ("EPSG:31468", (10.6, 47.4, 13.7, 54.6)),
    ("EPSG:3067", (20.6, 59.8, 31.5, 70.0)),
    ("EPSG:2180", (14.2, 49.1, 24.1, 54.8)),
    ("EPSG:3763", (-9.5, 37.0, -6.2, 42.1)),
    ("EPSG:2100", (19.6, 35.0, 28.2, 41.7)),
    ("EPSG:27572", (-4.7, 42.4, 8.2, 51.0)),
    ("EPSG:3577", (113.0, -43.0, 153.0, -10.0)),
    ("EPSG:2039", (34.3, 29.5, 35.6, 33.2)),
    ("EPSG:3414", (103.6, 1.2, 104.0, 1.45)),
]


def halton(index, base):
    f, r = 1.0, 0.0
    while index > 0:
        f /= base
        r += f * (index % base)
        index //= base
    return r


def isolated_env(tmp):
    """PROJ environment that sees proj.db and nothing else: no grids, no network, no cache."""
    src = subprocess.run(["projinfo", "--searchpaths"], capture_output=True, text=True, check=True)
    db = next(os.path.join(p, "proj.db") for p in src.stdout.split()
              if os.path.exists(os.path.join(p, "proj.db")))
    shutil.copy(db, tmp)
    env = {"PATH": os.environ["PATH"], "HOME": tmp, "XDG_DATA_HOME": tmp, "LC_ALL": "C",
           "PROJ_DATA": tmp, "PROJ_LIB": tmp, "PROJ_NETWORK": "OFF"}
    return env, os.path.join(tmp, "proj.db")


def northing_first(db, crs):
    auth, code = crs.split(":")
    row = sqlite3.connect(db).execute(
        """select a.orientation from (
             select coordinate_system_auth_name ca, coordinate_system_code cc from projected_crs
               where auth_name = ? and code = ?
             union all
             select coordinate_system_auth_name, coordinate_system_code from geodetic_crs
               where auth_name = ? and code = ?) c
           join axis a on a.coordinate_system_auth_name = c.ca and a.coordinate_system_code = c.cc
           where a.coordinate_system_order = 1""", (auth, code, auth, code)).fetchone()
    if row is None:
        sys.exit(f"{crs} not in proj.db")
    return row[0] in ("north", "south")


def cs2cs(env, src, dst, pairs):
    text = "".join(f"{a!r} {b!r}\n" for a, b in pairs)
    out = subprocess.run(["cs2cs", "-f", "%.10f", src, dst], input=text, capture_output=True,
                         text=True, env=env, check=True).stdout
    result = []
    for line in out.splitlines():
        a, b = line.split()[:2]
        if a == "*" or b == "*":
            sys.exit(f"cs2cs could not transform a point {src} -> {dst}")
        result.append((float(a), float(b)))
    return result


def operations(env, crs, box):
    """PROJ's grid-free candidate operations over the box, without ballpark fallbacks."""
    out = subprocess.run(
        ["projinfo", "-s", crs, "-t", "EPSG:4326", "--spatial-test", "intersects",
         "--grid-check", "discard_missing", "--bbox", ",".join(str(v) for v in box), "--summary"],
        capture_output=True, text=True, env=env, check=True).stdout.splitlines()
    names = [", ".join(line.split(", ")[1:3]) for line in out[1:]]
    return [n for n in names if "Ballpark" not in n]


def main():
    version = subprocess.run(["cs2cs"], capture_output=True, text=True).stderr.splitlines()[0]
    with tempfile.TemporaryDirectory() as tmp:
        env, db = isolated_env(tmp)
        meta = dict(sqlite3.connect(db).execute("select key, value from metadata"))
        header = [
            "# Generated by scripts/crs/make-reference.py; do not edit by hand.",
            f"# PROJ {version.strip()}; EPSG dataset {meta.get('EPSG.VERSION')}, "
            f"ESRI dataset {meta.get('ESRI.VERSION')}; grids hidden (best grid-free transformation).",
            "# x = easting or longitude, y = northing or latitude (source CRS units);"
            " lon, lat = EPSG:4326 degrees from cs2cs.",
        ]
        rows = []
        for crs, box in CRSS:
            w, s, e, n = box
            lonlat = [(w + (e - w) * halton(i, 2), s + (n - s) * halton(i, 3))
                      for i in range(1, POINTS_PER_CRS + 1)]
            nf = northing_first(db, crs)
            geographic = crs == "EPSG:4269"
            # cs2cs speaks each CRS's authority axis order: EPSG:4326 is latitude first.
            projected = cs2cs(env, "EPSG:4326", crs, [(lat, lon) for lon, lat in lonlat])
            digits = 9 if geographic else 3
            src_xy = [((b, a) if nf else (a, b)) for a, b in projected]
            src_xy = [(round(x, digits), round(y, digits)) for x, y in src_xy]
            back = cs2cs(env, crs, "EPSG:4326", [((y, x) if nf else (x, y)) for x, y in src_xy])
            candidates = operations(env, crs, box)
            if len(candidates) == 1:
                header.append(f"# {crs} via: {candidates[0]}")
            else:
                header.append(f"# {crs} via, for each point, the best-ranked of these whose area of use holds it:")
                header.extend(f"#     {c}" for c in candidates)
            for (x, y), (lat, lon) in zip(src_xy, back):
                rows.append(f"{crs},{x:.{digits}f},{y:.{digits}f},{lon:.10f},{lat:.10f}")
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("\n".join(header + ["crs,x,y,lon,lat"] + rows) + "\n")
    print(f"wrote {len(rows)} points for {len(CRSS)} CRSs to {OUT}")


if __name__ == "__main__":
    main()
