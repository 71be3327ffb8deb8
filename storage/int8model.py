"""The packaged MiniLM run with integer matrix products: the same int8 weights, MatMulInteger.
More: docs/storage-tuning.md#int8model."""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from pathlib import Path

from .errors import ModelUnavailable
from .hashing import file_sha256

log = logging.getLogger(__name__)


# The folder a derivation writes in, beside its target; one a stopped process left is removed by the next build
# of that target, under its lock.
_DERIVING = ".deriving-"


def cached_path(source_sha: str) -> Path:
    """Where the derived model of ``source_sha`` is cached, one file per onnxruntime version
    (its graph optimised by that version: docs/storage-tuning.md#int8model-optimised)."""
    import onnxruntime
    from platformdirs import user_cache_path

    name = f"minilm-matmulinteger-{source_sha[:16]}-ort{onnxruntime.__version__}-unsigned-optimised.onnx"
    return user_cache_path("memvault") / "models" / name


def build(source: Path, target: Path) -> Path | bytes:
    """Derive ``source`` into ``target`` unless another process just did; returns ``target``.
    More: docs/storage-tuning.md#int8model-build.

    Raises:
        ModelUnavailable: the derivation fails (onnx missing, a weight changed).
    """
    from filelock import FileLock

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(target.with_name(target.name + ".lock")):
            for left in target.parent.glob(target.name + _DERIVING + "*"):  # of a process stopped while deriving
                shutil.rmtree(left, ignore_errors=True)
            if not intact(target):
                derive(source, target)
        return target
    except OSError as exc:
        log.warning("cannot write the derived model to %s (%s); deriving it for this run only",
                    target.parent, exc)
        with tempfile.TemporaryDirectory(prefix="memvault-model-") as tmp:
            fallback = Path(tmp) / target.name
            derive(source, fallback)
            return fallback.read_bytes()


def intact(path: Path) -> bool:
    """True when ``path`` and its ``.sha256`` exist and agree: the digest is computed again unless the
    file's size and modification time are still those the stamp recorded when it was written
    (docs/storage-tuning.md#int8model-stamp)."""
    stamp = path.with_name(path.name + ".sha256")
    try:
        digest, _, written = stamp.read_text().partition("\n")
        if written.strip() and written.split() == _stat_words(path):
            return True
        return digest.strip() == file_sha256(path)
    except OSError:
        return False


def _stat_words(path: Path) -> list[str]:
    """``path``'s size in bytes and modification time in ns, as the stamp's second line holds them."""
    stat = path.stat()
    return [str(stat.st_size), str(stat.st_mtime_ns)]


def derive(source: Path, target: Path) -> None:
    """Write the MatMulInteger model of ``source`` to ``target`` (and ``target.sha256``).
    More: docs/storage-tuning.md#int8model-derive.

    Raises:
        ModelUnavailable: onnx cannot read ``source``, or a quantised weight is not
            the packaged int8 matrix it came from.
        OSError: ``target``'s folder cannot be written.
    """
    try:
        import onnx
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as exc:
        raise ModelUnavailable(f"cannot derive the integer model: {exc}") from exc
    log.warning("preparing the embedding model's integer variant from %s: once per machine and "
                "onnxruntime version, about 10 s", source)
    model = onnx.load(str(source))
    originals = _fold_matmul_weights(model)
    root = logging.getLogger()
    root.addFilter(_only_warnings)
    try:
        with tempfile.TemporaryDirectory(dir=target.parent, prefix=target.name + _DERIVING) as tmp:
            folded, quantised = Path(tmp) / "folded.onnx", Path(tmp) / "quantised.onnx"
            onnx.save(model, str(folded))
            quantize_dynamic(folded, quantised, weight_type=QuantType.QInt8, per_channel=True,
                             op_types_to_quantize=["MatMul"])
            checked = onnx.load(str(quantised))
            _check_weights(checked, originals)
            _unsigned_weights(checked)
            onnx.save(checked, str(quantised))
            optimised = Path(tmp) / "optimised.onnx"
            _optimise(quantised, optimised)
            stamp = Path(tmp) / "stamp"
            stamp.write_text(file_sha256(optimised) + "\n" + " ".join(_stat_words(optimised)) + "\n")
            os.replace(optimised, target)
            os.replace(stamp, target.with_name(target.name + ".sha256"))
    finally:
        root.removeFilter(_only_warnings)
    log.info("derived the integer model %s", target)


def _optimise(source: Path, target: Path) -> None:
    """Write ``source`` with the graph optimisations onnxruntime would otherwise apply at every session
    start (constant folding, fused attention and layer norms: ``ORT_ENABLE_EXTENDED``) to ``target``
    (onnxruntime documentation, "Graph optimizations", offline mode). More:
    docs/storage-tuning.md#int8model-optimised."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.log_severity_level = 3
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    options.optimized_model_filepath = str(target)
    ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])


def _only_warnings(record: logging.LogRecord) -> bool:
    """The quantiser's root-logger output: warnings only, not its advice to pre-process."""
    return record.levelno >= logging.WARNING and not str(record.msg).startswith("Please consider to run pre-processing")


def _fold_matmul_weights(model: object) -> dict[str, object]:
    """Replace each ``Cast``/``Mul`` de-quantising a ``MatMul`` weight with its float32
    result; returns {weight name: the packaged int8 array}."""
    import numpy as np
    from onnx import numpy_helper

    graph = model.graph  # type: ignore[attr-defined]
    tables = {init.name: init for init in graph.initializer}
    casts = {node.output[0]: node for node in graph.node if node.op_type == "Cast" and node.input[0] in tables}
    weights = {node.input[1] for node in graph.node if node.op_type == "MatMul"}
    folds = {node.output[0]: node for node in graph.node
             if node.op_type == "Mul" and node.input[0] in casts and node.output[0] in weights}
    folded_casts = {node.input[0] for node in folds.values()}
    originals, dropped, added = {}, set(), []
    for name, mul in folds.items():
        quantised_name = casts[mul.input[0]].input[0]
        quantised = numpy_helper.to_array(tables[quantised_name])
        scale = numpy_helper.to_array(tables[mul.input[1]])
        added.append(numpy_helper.from_array((quantised.astype(np.float32) * scale).astype(np.float32), name))
        originals[name] = quantised
        dropped |= {quantised_name, mul.input[1]}
    if not folds:
        raise ModelUnavailable("the packaged model has no de-quantised MatMul weights to derive from")
    kept_nodes = [n for n in graph.node if n.output[0] not in folds and n.output[0] not in folded_casts]
    kept_tables = [t for t in graph.initializer if t.name not in dropped]
    del graph.node[:]
    graph.node.extend(kept_nodes)
    del graph.initializer[:]
    graph.initializer.extend(kept_tables + added)
    return originals


def _unsigned_weights(model: object) -> None:
    """Write each ``MatMulInteger`` weight and its zero point (int8) as uint8, 128 more: the same integer
    products, which onnxruntime computes exactly on every CPU (its AVX2 kernel for int8 weights adds two
    products in 16 bits, saturating, where AVX-512 VNNI does not; onnxruntime documentation, "Quantize
    ONNX models", U8U8 and saturation).
    More: docs/storage-tuning.md#int8model-unsigned."""
    import numpy as np
    from onnx import numpy_helper

    tables = {t.name: t for t in model.graph.initializer}  # type: ignore[attr-defined]
    names = {name for node in model.graph.node if node.op_type == "MatMulInteger"  # type: ignore[attr-defined]
             for name in node.input[1::2] if name in tables}  # the weight and its zero point
    for name in names:
        signed = numpy_helper.to_array(tables[name])
        tables[name].CopyFrom(numpy_helper.from_array((signed.astype(np.int16) + 128).astype(np.uint8), name))


def _check_weights(model: object, originals: dict[str, object]) -> None:
    """Raise ModelUnavailable unless every folded weight is back as its exact int8 matrix."""
    import numpy as np
    from onnx import numpy_helper

    tables = {t.name: t for t in model.graph.initializer}  # type: ignore[attr-defined]
    for name, original in originals.items():
        written = tables.get(f"{name}_quantized")  # the quantiser's name for a quantised weight
        if written is None or not np.array_equal(numpy_helper.to_array(written), original):
            raise ModelUnavailable(f"the derived integer model changed the weights of {name}")
