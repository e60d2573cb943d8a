// The named pipeline on every example. After it no hl or fused op is left, the host launches
// kernels on GM buffers, and the output reparses to the same text.
// DEFINE: %{pipeline} = 'builtin.module(func.func(hl-decompose,hl-canonicalize,cse,dce,kiln-fuse{opt-level=2}),kiln-codegen{target=tiny-npu})'
// RUN: %kiln-opt %S/../../examples/mlp.mlir -p %{pipeline} > %t.mlp
// RUN: FileCheck %s --check-prefix=MLP --implicit-check-not=hl. --implicit-check-not=fused. < %t.mlp
// RUN: %kiln-opt %t.mlp | FileCheck %s --check-prefix=MLP
// RUN: %kiln-opt %S/../../examples/llama_block.mlir -p %{pipeline} > %t.llama
// RUN: FileCheck %s --check-prefix=LLAMA --implicit-check-not=hl. --implicit-check-not=fused. < %t.llama
// RUN: %kiln-opt %t.llama | FileCheck %s --check-prefix=LLAMA
// RUN: %kiln-opt %S/../../examples/transformer_encoder.mlir -p %{pipeline} > %t.enc
// RUN: FileCheck %s --check-prefix=ENC --implicit-check-not=hl. --implicit-check-not=fused. < %t.enc
// RUN: %kiln-opt %t.enc | FileCheck %s --check-prefix=ENC
// RUN: %kiln-opt %S/../../examples/resnet_block.mlir -p %{pipeline} > %t.res
// RUN: FileCheck %s --check-prefix=RES --implicit-check-not=hl. --implicit-check-not=fused. < %t.res
// RUN: %kiln-opt %t.res | diff %t.res -
// The same on ascend910b.
// REDEFINE: %{pipeline} = 'builtin.module(func.func(hl-decompose,hl-canonicalize,cse,dce,kiln-fuse{opt-level=2}),kiln-codegen{target=ascend910b})'
// RUN: %kiln-opt %S/../../examples/mlp.mlir -p %{pipeline} | FileCheck %s --check-prefix=910B --implicit-check-not=hl. --implicit-check-not=fused.
// RUN: %kiln-opt %S/../../examples/llama_block.mlir -p %{pipeline} | FileCheck %s --check-prefix=910B --implicit-check-not=hl. --implicit-check-not=fused.
// RUN: %kiln-opt %S/../../examples/transformer_encoder.mlir -p %{pipeline} | FileCheck %s --check-prefix=910B --implicit-check-not=hl. --implicit-check-not=fused.
// RUN: %kiln-opt %S/../../examples/resnet_block.mlir -p %{pipeline} | FileCheck %s --check-prefix=910B --implicit-check-not=hl. --implicit-check-not=fused.
// Reparsing prints the same module.
// RUN: %kiln-opt %t.mlp | diff %t.mlp -
// RUN: %kiln-opt %t.llama | diff %t.llama -
// RUN: %kiln-opt %t.enc | diff %t.enc -

// Each fused conv + batch_norm region: the conv on the cube, its epilogue one vector kernel.
// RES-LABEL: func.func private @resnet_block_kernel0(
// RES-SAME:    npuvec.kind = "matmul"
// RES:         npuvec.mmad
// RES:         npuvec.fixpipe
// RES-LABEL: func.func private @resnet_block_kernel1(
// RES-SAME:    npuvec.kind = "vector"
// RES-LABEL: func.func private @resnet_block_kernel2(
// RES-SAME:    npuvec.kind = "matmul"
// RES-LABEL: func.func private @resnet_block_kernel3(
// RES-SAME:    npuvec.kind = "vector"
// RES-LABEL: func.func @resnet_block(
// RES-COUNT-4: npuvec.launch
// RES-NOT:     npuvec.launch

// MLP: module attributes {npuvec.target = "tiny-npu"} {
// Each linear layer is one mix kernel: the matmul on the cube, then (bias, gelu / bias,
// residual) on the vector unit over the result tile in UB, before the one store.
// MLP-LABEL: func.func private @mlp_kernel0(
// MLP-SAME:    %{{.*}}: memref<8x256xf32, #npuvec.space<gm>>, %{{.*}}: memref<256x512xf32, #npuvec.space<gm>>, %{{.*}}: memref<512xf32, #npuvec.space<gm>>, %{{.*}}: memref<8x512xf32, #npuvec.space<gm>>)
// MLP-SAME:    npuvec.core = #npuvec.core<mix>, npuvec.kind = "mix"
// MLP-SAME:    npuvec.ub_bytes =
// MLP:         npuvec.mmad
// MLP:         npuvec.fixpipe ins(%{{.*}} : memref<16x64xf32, #npuvec.space<l0c>>) outs(%[[T:.*]] : memref<8x64xf32, #npuvec.space<ub>>)
// MLP:         npuvec.load ins(%arg2[{{.*}}] : memref<512xf32, #npuvec.space<gm>>) outs(%[[BIAS:.*]] : memref<1x64xf32, #npuvec.space<ub>>) sizes [1, 64]
// MLP:         npuvec.add ins(%[[T]], %[[BIAS]] : {{.*}}) outs(%[[T]] :
// MLP:         npuvec.erf
// MLP:         npuvec.store ins(%{{.*}} : memref<8x64xf32, #npuvec.space<ub>>) outs(%arg3[{{.*}}] : memref<8x512xf32, #npuvec.space<gm>>) sizes [8, 64] strides [512, 1]
// MLP:         npuvec.barrier all
// MLP-LABEL: func.func private @mlp_kernel1(
// MLP-SAME:    npuvec.kind = "mix"
// MLP-NOT:   func.func private
// MLP-LABEL: func.func @mlp(
// MLP-SAME:    -> memref<8x256xf32, #npuvec.space<gm>>
// MLP-NEXT:    %[[H:.*]] = memref.alloc() : memref<8x512xf32, #npuvec.space<gm>>
// MLP-NEXT:    npuvec.launch @mlp_kernel0(%arg0, %arg1, %arg2, %[[H]])
// MLP-NEXT:    %[[OUT:.*]] = memref.alloc() : memref<8x256xf32, #npuvec.space<gm>>
// MLP-NEXT:    npuvec.launch @mlp_kernel1(%[[H]], %arg3, %arg4, %arg0, %[[OUT]])
// MLP-NEXT:    return %[[OUT]] : memref<8x256xf32, #npuvec.space<gm>>

// Ten kernels: the halves of the swiglu are slices that its consumer reads as views, the
// attention is one flash-attention kernel.
// LLAMA: module attributes {npuvec.target = "tiny-npu"} {
// LLAMA:       func.func private @llama_block_kernel4(
// LLAMA-SAME:    npuvec.kind = "attention"
// LLAMA:       func.func private @llama_block_kernel9(
// LLAMA-LABEL: func.func @llama_block(
// LLAMA-NEXT:    memref.alloc() : memref<16x64xf32, #npuvec.space<gm>>
// LLAMA-NEXT:    npuvec.launch @llama_block_kernel0(
// LLAMA:         npuvec.launch @llama_block_kernel9(
// LLAMA:         return %{{.*}} : memref<16x64xf32, #npuvec.space<gm>>

// ENC: module attributes {npuvec.target = "tiny-npu"} {
// ENC:       func.func private @encoder_kernel8(
// ENC-LABEL: func.func @encoder(
// The Q projection stores its heads ([4, 16, 16]) directly: no layout kernel after it.
// ENC-NEXT:    %[[Q:.*]] = memref.alloc() : memref<4x16x16xf32, #npuvec.space<gm>>
// ENC-NEXT:    npuvec.launch @encoder_kernel0(%arg0, %arg1, %[[Q]])
// ENC-NEXT:    %[[K:.*]] = memref.alloc() : memref<4x16x16xf32, #npuvec.space<gm>>
// ENC-NEXT:    npuvec.launch @encoder_kernel1(%arg0, %arg2, %[[K]])
// The attention: one kernel, its probabilities through a workspace of one tile per core.
// ENC-NEXT:    memref.alloc() : memref<4x16x16xf32, #npuvec.space<gm>>
// ENC-NEXT:    npuvec.launch @encoder_kernel2(
// ENC-NEXT:    %[[ATT:.*]] = memref.alloc() : memref<16x64xf32, #npuvec.space<gm>>
// ENC-NEXT:    %[[WS:.*]] = memref.alloc() : memref<1x16x16xf32, #npuvec.space<gm>>
// ENC-NEXT:    npuvec.launch @encoder_kernel3(%{{.*}}, %{{.*}}, %{{.*}}, %[[ATT]], %[[WS]])
// ENC:         npuvec.launch @encoder_kernel8(
// ENC:         return %{{.*}} : memref<16x64xf32, #npuvec.space<gm>>

// 910B: module attributes {npuvec.target = "ascend910b"} {
// 910B: npuvec.launch
