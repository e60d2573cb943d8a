// RUN: %kiln-opt %s --split-input-file -p 'builtin.module(kiln-codegen-outline,kiln-codegen-tile,kiln-codegen-bufferize)' | FileCheck %s
// kiln-codegen-bufferize: kernel signatures and host functions move from tensors to GM memrefs.

// The kernel's result becomes a trailing output argument; its body reads its arguments through
// bufferization.to_tensor and writes the result with materialize_in_destination.
// CHECK-LABEL: func.func private @softmax_kernel0(
// CHECK-SAME:      %[[IN:.*]]: memref<13x64xf32, #npuvec.space<gm>>, %[[OUT:.*]]: memref<13x64xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = {{[0-9]+}} : i64, npuvec.core = #npuvec.core<aiv>, npuvec.kind = "vector", npuvec.tile = {{.*}}} {
// CHECK-NEXT:    %[[T:.*]] = bufferization.to_tensor %[[IN]] : memref<13x64xf32, #npuvec.space<gm>> to tensor<13x64xf32>
// CHECK-NEXT:    hl.reduce_max %[[T]]
// CHECK:         %[[D:.*]] = hl.div
// CHECK-NEXT:    bufferization.materialize_in_destination %[[D]] in writable %[[OUT]] : (tensor<13x64xf32>, memref<13x64xf32, #npuvec.space<gm>>) -> ()
// CHECK-NEXT:    return{{$}}
// The host allocates the result in GM and launches the kernel on it.
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:      %[[X:.*]]: memref<13x64xf32, #npuvec.space<gm>>) -> memref<13x64xf32, #npuvec.space<gm>> {
// CHECK-NEXT:    %[[R:.*]] = memref.alloc() : memref<13x64xf32, #npuvec.space<gm>>
// CHECK-NEXT:    npuvec.launch @softmax_kernel0(%[[X]], %[[R]]) : (memref<13x64xf32, #npuvec.space<gm>>, memref<13x64xf32, #npuvec.space<gm>>) -> ()
// CHECK-NEXT:    return %[[R]] : memref<13x64xf32, #npuvec.space<gm>>
func.func @softmax(%x: tensor<13x64xf32>) -> tensor<13x64xf32> {
  %r = fused.region vector (%a = %x) : (tensor<13x64xf32>) -> tensor<13x64xf32> {
    %m = hl.reduce_max %a {axes = [1], keep_dims = true} : tensor<13x64xf32> -> tensor<13x1xf32>
    %s = hl.sub %a, %m : tensor<13x64xf32>, tensor<13x1xf32> -> tensor<13x64xf32>
    %e = hl.exp %s : tensor<13x64xf32>
    %t = hl.reduce_sum %e {axes = [1], keep_dims = true} : tensor<13x64xf32> -> tensor<13x1xf32>
    %d = hl.div %e, %t : tensor<13x64xf32>, tensor<13x1xf32> -> tensor<13x64xf32>
    fused.yield %d : tensor<13x64xf32>
  }
  return %r : tensor<13x64xf32>
}

// -----

// Host constants become npuvec.constant buffers and views npuvec.reshape of buffers.
// CHECK-LABEL: func.func @host(
// CHECK-SAME:      %[[A:.*]]: memref<4x16xf32, #npuvec.space<gm>>) -> memref<64xf32, #npuvec.space<gm>> {
// CHECK-NEXT:    %[[C:.*]] = npuvec.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32> -> memref<4xf32, #npuvec.space<gm>>
// CHECK-NEXT:    %[[R:.*]] = npuvec.reshape %[[A]] : memref<4x16xf32, #npuvec.space<gm>> -> memref<64xf32, #npuvec.space<gm>>
// CHECK-NEXT:    %[[E:.*]] = memref.alloc() : memref<64xf32, #npuvec.space<gm>>
// CHECK-NEXT:    npuvec.launch @host_kernel0(%[[R]], %[[E]])
// CHECK-NEXT:    %[[CR:.*]] = npuvec.reshape %[[C]] : memref<4xf32, #npuvec.space<gm>> -> memref<1x4xf32, #npuvec.space<gm>>
// CHECK-NEXT:    %[[B:.*]] = memref.alloc() : memref<16x4xf32, #npuvec.space<gm>>
// CHECK-NEXT:    npuvec.launch @host_kernel1(%[[CR]], %[[B]])
// CHECK-NEXT:    %[[BR:.*]] = npuvec.reshape %[[B]] : memref<16x4xf32, #npuvec.space<gm>> -> memref<64xf32, #npuvec.space<gm>>
// CHECK-NEXT:    %[[S:.*]] = memref.alloc() : memref<64xf32, #npuvec.space<gm>>
// CHECK-NEXT:    npuvec.launch @host_kernel2(%[[E]], %[[BR]], %[[S]]) : (memref<64xf32, #npuvec.space<gm>>, memref<64xf32, #npuvec.space<gm>>, memref<64xf32, #npuvec.space<gm>>) -> ()
// CHECK-NEXT:    return %[[S]] : memref<64xf32, #npuvec.space<gm>>
// CHECK-NOT:     hl.
func.func @host(%a: tensor<4x16xf32>) -> tensor<64xf32> {
  %c = hl.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r = hl.reshape %a : tensor<4x16xf32> -> tensor<64xf32>
  %e = hl.exp %r : tensor<64xf32>
  %b = hl.reshape %c : tensor<4xf32> -> tensor<1x4xf32>
  %s = hl.broadcast_to %b : tensor<1x4xf32> -> tensor<16x4xf32>
  %f = hl.reshape %s : tensor<16x4xf32> -> tensor<64xf32>
  %g = hl.add %e, %f : tensor<64xf32>
  return %g : tensor<64xf32>
}
