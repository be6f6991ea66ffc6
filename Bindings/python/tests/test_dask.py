"""Many captures on a cluster: a folder of scans reported by a Dask LocalCluster of two worker processes.

Scans travel to the workers by path (a Scan pickles as its path) and reports come back as plain data; the
cluster's table must equal the one made serially in this process. Dask is an optional extra: the test is
skipped without it (`make test` installs it).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import fathom
import _scene

distributed = pytest.importorskip("distributed")

PACKAGE_DIR = str(Path(fathom.__file__).resolve().parents[1])


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("captures")
    scenes = [
        _scene.Scene(center=np.array([0.0, 0.15, 0.0]), scale=np.array([0.40, 0.30, 0.20]), rot_y=0.2),
        _scene.Scene(center=np.array([0.1, 0.10, -0.05]), scale=np.array([0.25, 0.20, 0.30]), rot_y=0.9),
        _scene.Scene(center=np.array([-0.05, 0.2, 0.05]), scale=np.array([0.30, 0.40, 0.30]), rot_y=-0.3),
    ]
    for i, scene in enumerate(scenes):
        ts, poses, ks, depths, confs = _scene.capture(scene, n=60, seed=i)
        fathom.write_scan(root / f"capture{i}", f"2024010{i}_120000_cluster", ts, poses.astype(np.float64), ks, depths, confs)
    return root, scenes


def test_folder_of_scans_on_a_local_cluster(folder, monkeypatch):
    root, scenes = folder
    paths = sorted(str(p) for p in root.iterdir())
    serial = [fathom.scan_report(p).row() for p in paths]
    # The workers are new processes: they find the package the way this process did.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [PACKAGE_DIR, os.environ.get("PYTHONPATH")])))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client:
            scans = [fathom.Scan.open(p) for p in paths]
            reports = client.gather(client.map(fathom.scan_report, scans))
            pids = set(client.run(os.getpid).values())
    assert len(pids) == 2 and os.getpid() not in pids
    table = [r.row() for r in reports]
    assert [row["scan_id"] for row in table] == [f"2024010{i}_120000_cluster" for i in range(3)]
    for row, expected, scene in zip(table, serial, scenes):
        assert row == expected
        assert row["box_source"] == "fitted"
        assert abs(row["scale_y"] - scene.scale[1]) < 0.02
