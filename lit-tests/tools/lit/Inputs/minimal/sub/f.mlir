// RUN: my-opt %s | grep -q "func.func @f"
// CHECK: func.func @f
func.func @f() { return }
