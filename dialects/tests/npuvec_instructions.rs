//! Every `npuvec` instruction op agrees with the ISA's table of its instruction
//! (`kiln_bytecode::opcode::OPCODES`): its operand count is the opcode's, and the memory
//! effects it declares for the generic passes (CSE, DCE) are exactly the reads and writes of
//! the opcode's operand roles. Every opcode that an `npuvec` op can be has exactly one.

use kiln_bytecode::isa::{BinaryOp, UnaryOp};
use kiln_bytecode::opcode::{InstKind, Opcode, Role, OPCODES};
use kiln_compiler::dialect::effects::{EffectKind, EffectOn, MemoryEffects};
use kiln_compiler::dialect::ValueKind;
use kiln_compiler::Arity;
use kiln_dialects::npuvec::interfaces::{instruction, op_of};
use kiln_dialects::npuvec::NPUVEC;

#[test]
fn declared_effects_are_the_opcode_roles() {
    let mut checked = 0;
    for &def in NPUVEC.ops {
        let Some(kind) = instruction(def) else { continue };
        let roles = kind.opcode().info().operands;
        if roles.is_empty() {
            continue;
        }
        let Arity::Named(operands) = def.operands else { panic!("'{}' has no named operands", def.name) };
        // A load's or store's trailing `extents` are a shape class's, not the instruction's.
        let arity = operands.iter().filter(|o| o.name != "extents").count();
        if arity < operands.len() {
            let last = operands.last().map(|o| (o.name, o.kind));
            assert_eq!(last, Some(("extents", ValueKind::Variadic)), "'{}': extents come last", def.name);
            assert!(matches!(kind.opcode(), Opcode::Load | Opcode::Store), "'{}' has extents", def.name);
        }
        assert_eq!(
            arity,
            roles.len(),
            "'{}' has {arity} operands, its opcode {} roles",
            def.name,
            roles.len()
        );
        let effects =
            def.interface::<MemoryEffects>().unwrap_or_else(|| panic!("'{}' declares no effects", def.name));
        let declared = |kind: EffectKind, i: usize| {
            effects.0.iter().any(|e| e.kind == kind && e.on == EffectOn::Operand(i))
        };
        for (i, role) in roles.iter().enumerate() {
            let (read, write) = match role {
                Role::Read | Role::GmRead => (true, false),
                Role::Write | Role::GmWrite => (false, true),
                Role::Accumulate => (true, true),
                Role::Scalar => (false, false),
            };
            assert_eq!(declared(EffectKind::Read, i), read, "'{}' operand #{i} ({role:?}): read", def.name);
            assert_eq!(
                declared(EffectKind::Write, i),
                write,
                "'{}' operand #{i} ({role:?}): write",
                def.name
            );
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} npuvec instructions checked");
}

#[test]
fn every_vector_instruction_has_one_op() {
    let mut kinds: Vec<InstKind> = UnaryOp::ALL.iter().map(|&u| InstKind::Unary(u)).collect();
    kinds.extend(BinaryOp::ALL.iter().map(|&b| InstKind::Binary(b)));
    let families = [Opcode::Const, Opcode::Scalar, Opcode::For, Opcode::If, Opcode::Unary, Opcode::Binary];
    kinds.extend(OPCODES.iter().map(|i| i.opcode).filter(|o| !families.contains(o)).map(InstKind::Op));
    for kind in kinds {
        let def = op_of(kind).unwrap_or_else(|| panic!("no npuvec op is {kind:?}"));
        let same = NPUVEC.ops.iter().filter(|&&d| instruction(d) == Some(kind)).count();
        assert_eq!(same, 1, "{kind:?} is {same} ops ('{}' among them)", def.name);
    }
}
