# SPDX-License-Identifier: Apache-2.0
"""A one-subgraph TFLite model assembled with the object API of LiteRT's schema (no TensorFlow):
the one flatbuffer writer of net/cnn.py, tests/net/ops_models.py and tests/linear/tflite_fc.py;
and LiteRT's reference kernels run on such a model (ref_outputs)."""
import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as sch
from ai_edge_litert.interpreter import Interpreter, OpResolverType


def quantization(scales, zps, dim=0):
    """Per-tensor (one scale) or per-channel (along dim) int8/int32 quantization parameters."""
    q = sch.QuantizationParametersT()
    q.scale = [float(np.float32(s)) for s in scales]
    q.zeroPoint = [int(z) for z in zps]
    q.quantizedDimension = dim
    return q


def ref_outputs(model_bytes, x):
    """LiteRT's reference kernels (BUILTIN_REF) on every batch element of x, one inference each
    (element b fed as x[b:b + 1]): the list of the outputs, each with the leading 1."""
    it = Interpreter(model_content=model_bytes, num_threads=1,
                     experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    i_in = it.get_input_details()[0]["index"]
    i_out = it.get_output_details()[0]["index"]
    outs = []
    for b in range(len(x)):
        it.set_tensor(i_in, x[b:b + 1])
        it.invoke()
        outs.append(it.get_tensor(i_out).copy())
    return outs


class Builder:
    """Tensors and operators added in order; finish() returns the .tflite bytes."""

    def __init__(self, description):
        self.model = sch.ModelT()
        self.model.version = 3
        self.model.description = description
        self.model.operatorCodes = []
        self.model.buffers = [sch.BufferT()]  # buffer 0: empty, by convention
        self.tensors, self.ops, self.codes = [], [], {}

    def tensor(self, name, shape, ttype, scales=None, zps=None, dim=0, data=None):
        """A tensor (quantized when scales is given; constant when data is given); its index."""
        t = sch.TensorT()
        t.name = name
        t.shape = [int(d) for d in shape]
        t.type = ttype
        if scales is not None:
            t.quantization = quantization(scales, zps, dim)
        t.buffer = 0
        if data is not None:
            b = sch.BufferT()
            b.data = np.frombuffer(np.ascontiguousarray(data).tobytes(), np.uint8).tolist()
            self.model.buffers.append(b)
            t.buffer = len(self.model.buffers) - 1
        self.tensors.append(t)
        return len(self.tensors) - 1

    def op(self, builtin, version, inputs, outputs, opt_type=None, opt=None):
        """An operator; its operator code (builtin, version) is added on first use."""
        if (builtin, version) not in self.codes:
            code = sch.OperatorCodeT()
            code.builtinCode = builtin
            code.deprecatedBuiltinCode = min(builtin, 127)
            code.version = version
            self.model.operatorCodes.append(code)
            self.codes[(builtin, version)] = len(self.model.operatorCodes) - 1
        op = sch.OperatorT()
        op.opcodeIndex = self.codes[(builtin, version)]
        op.inputs = list(inputs)
        op.outputs = list(outputs)
        if opt is not None:
            op.builtinOptionsType = opt_type
            op.builtinOptions = opt
        self.ops.append(op)

    def finish(self, inputs, outputs):
        sg = sch.SubGraphT()
        sg.tensors = self.tensors
        sg.inputs = list(inputs)
        sg.outputs = list(outputs)
        sg.operators = self.ops
        sg.name = "main"
        self.model.subgraphs = [sg]
        b = flatbuffers.Builder(1024)
        b.Finish(self.model.Pack(b), file_identifier=b"TFL3")
        return bytes(b.Output())
