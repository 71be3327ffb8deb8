"""The integer variant's products are exact on every CPU: onnxruntime's AVX2 kernel for int8 weights
adds two products in 16 bits and saturates, so on an AVX2 machine "who handles IT?" put "Payroll is
handled by Gusto" first where an AVX-512 VNNI machine put the IT memories first (2026-12-06). Its
weights are the packaged int8 ones as uint8 with zero point 128, which every kernel multiplies exactly."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

from memvault.storage import int8model
from memvault.storage.embeddings import MODEL_PACKAGE, MODEL_SHA256

pytestmark = pytest.mark.slow
PRODUCTS = {"MatMulInteger": (1, 3), "MatMulIntegerToFloat": (1, 5), "DynamicQuantizeMatMul": (1, 3)}


def _packaged_int8() -> set[bytes]:
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    assert spec is not None and spec.submodule_search_locations
    packaged = onnx.load(str(Path(list(spec.submodule_search_locations)[0]) / "model.onnx"))
    return {numpy_helper.to_array(t).tobytes() for t in packaged.graph.initializer
            if t.data_type == onnx.TensorProto.INT8}


def test_the_integer_variant_multiplies_the_packaged_weights_as_unsigned_bytes():
    derived = onnx.load(str(int8model.cached_path(MODEL_SHA256)))  # derived before the tests (conftest)
    tables = {t.name: t for t in derived.graph.initializer}
    weights, zero_points = {}, {}
    for node in derived.graph.node:
        if node.op_type in PRODUCTS:
            weight, zero_point = (node.input[i] for i in PRODUCTS[node.op_type])
            weights[weight] = numpy_helper.to_array(tables[weight])
            zero_points[zero_point] = numpy_helper.to_array(tables[zero_point])
    assert weights and {w.dtype for w in weights.values()} == {np.dtype(np.uint8)}
    assert all((z == 128).all() and z.dtype == np.uint8 for z in zero_points.values())
    shifted = {(w.astype(np.int16) - 128).astype(np.int8).tobytes() for w in weights.values()}
    assert len(shifted) == len(weights) and shifted <= _packaged_int8()
    # every product with a weight is an integer one (float MatMuls are attention's, of two activations)
    assert not [n.name for n in derived.graph.node if "MatMul" in n.op_type and n.op_type not in PRODUCTS
                and any(name in tables for name in n.input)]
