// RUN: %kiln-opt %s --verify-diagnostics --kiln-fuse='opt-level=2 remarks'
// A type whose byte size does not fit in 64 bits stays legal, but the fusion model computes no
// size from it: its ops are kept out of regions (no "saves N B" claim from a wrapped size).

func.func @huge(%a: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  // expected-remark @+1 {{not fused 'hl.exp': a shape whose byte size does not fit in 64 bits}}
  %0 = hl.exp %a : tensor<4294967296x4294967296xf32>
  // expected-remark @+1 {{not fused 'hl.add': a shape whose byte size does not fit in 64 bits}}
  %1 = hl.add %0, %0 : tensor<4294967296x4294967296xf32>
  return %1 : tensor<4294967296x4294967296xf32>
}
