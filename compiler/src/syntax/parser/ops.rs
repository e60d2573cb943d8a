//! Operations, regions and blocks. Region nesting is handled with an explicit stack: an op
//! whose region list is open waits on the stack while its regions are parsed, so a file with
//! regions nested 10,000 deep uses constant call-stack space.

use crate::asm::UnresolvedOperand;
use crate::attributes::NamedAttr;
use crate::dialect::OpDef;
use crate::ir::{BlockId, OpId, OperationState};
use crate::syntax::lexer::{decode_string, unsigned_value, TokenKind};
use crate::syntax::parser::{PResult, ParseError, Parser, MAX_CUSTOM_DEPTH};
use crate::types::TypeKind;

/// The blocks of a region being parsed.
#[derive(Default)]
pub(crate) struct RegionBody {
    /// Blocks in label order.
    pub blocks: Vec<BlockId>,
    /// The block ops are appended to.
    pub current: Option<BlockId>,
}

/// `%name` or `%name:N` on the left of `=`.
struct ResultName<'a> {
    name: &'a str,
    count: u64,
    offset: usize,
}

/// A generic op whose region list is being parsed.
struct Pending<'a, 'c> {
    results: Vec<ResultName<'a>>,
    start: usize,
    state: OperationState<'c>,
    operands: Vec<UnresolvedOperand<'a>>,
    regions: Vec<Vec<BlockId>>,
}

enum Started<'a, 'c> {
    Done(OpId),
    Regions(Box<Pending<'a, 'c>>),
}

impl<'a, 'c> Parser<'a, 'c> {
    /// Parses the ops of the file into `top_block`.
    pub(crate) fn parse_top_level(&mut self, top_block: BlockId) -> PResult<()> {
        self.scopes.push_region(true);
        let mut body = RegionBody { blocks: vec![top_block], current: Some(top_block) };
        self.parse_region_body(&mut body, true)?;
        self.scopes.pop_region()
    }

    /// Parses blocks and ops into `base` up to (not including) the `}` that closes it, or up
    /// to the end of the file at the top level.
    pub(crate) fn parse_region_body(&mut self, base: &mut RegionBody, top_level: bool) -> PResult<()> {
        let mut stack: Vec<(Box<Pending<'a, 'c>>, RegionBody)> = Vec::new();
        loop {
            let outermost = stack.is_empty();
            match self.tok.kind {
                TokenKind::RBrace if outermost && !top_level => return Ok(()),
                TokenKind::RBrace if !outermost => {
                    let (mut pending, body) = stack.pop().expect("stack is not empty");
                    self.scopes.pop_region()?;
                    self.bump();
                    pending.regions.push(body.blocks);
                    if self.eat(TokenKind::Comma) {
                        self.expect(TokenKind::LBrace, "expected '{' to begin a region")?;
                        // Generic-form regions share the enclosing name scope even when the op is isolated
                        // from above, as in mlir-opt: the verifier reports outer uses.
                        self.scopes.push_region(false);
                        stack.push((pending, RegionBody::default()));
                        continue;
                    }
                    self.expect(TokenKind::RParen, "expected ')' to end region list")?;
                    let op = self.finish_generic(*pending)?;
                    let parent = stack.last_mut().map_or(&mut *base, |f| &mut f.1);
                    self.append_op_to(parent, op);
                }
                TokenKind::Eof if outermost && top_level => return Ok(()),
                TokenKind::CaretIdent if !(outermost && top_level) => {
                    let body = stack.last_mut().map_or(&mut *base, |f| &mut f.1);
                    self.parse_block_label(body)?;
                }
                TokenKind::HashIdent | TokenKind::ExclaimIdent if outermost && top_level => {
                    self.parse_alias_def()?
                }
                TokenKind::FileMetadataBegin if outermost && top_level => self.parse_resources()?,
                _ => match self.parse_op_start()? {
                    Started::Done(op) => {
                        let parent = stack.last_mut().map_or(&mut *base, |f| &mut f.1);
                        self.append_op_to(parent, op);
                    }
                    Started::Regions(pending) => {
                        self.scopes.push_region(false);
                        stack.push((pending, RegionBody::default()));
                    }
                },
            }
        }
    }

    fn append_op_to(&mut self, body: &mut RegionBody, op: OpId) {
        let block = match body.current {
            Some(b) => b,
            None => {
                let b = self.ir.create_block();
                body.blocks.push(b);
                body.current = Some(b);
                b
            }
        };
        self.ir.append_op(block, op);
    }

    /// `^bb1(%a: i32 loc(...), ...):`
    fn parse_block_label(&mut self, body: &mut RegionBody) -> PResult<()> {
        let (name, offset) = (self.text(), self.tok.start);
        self.bump();
        let block = self.scopes.define_block(&mut self.ir, name, offset)?;
        if self.eat(TokenKind::LParen) && !self.eat(TokenKind::RParen) {
            loop {
                self.parse_block_arg(block)?;
                if !self.eat(TokenKind::Comma) {
                    break;
                }
            }
            self.expect(TokenKind::RParen, "expected ')' to end argument list")?;
        }
        self.expect(TokenKind::Colon, "expected ':' after block name")?;
        body.blocks.push(block);
        body.current = Some(block);
        Ok(())
    }

    /// `%a: i32 loc(...)`, added to `block` and defined.
    pub(crate) fn parse_block_arg(&mut self, block: BlockId) -> PResult<()> {
        if !self.at(TokenKind::PercentIdent) {
            return Err(self.wrong_token("expected SSA identifier"));
        }
        let (name, offset) = (self.text(), self.tok.start);
        self.bump();
        self.expect(TokenKind::Colon, "expected ':' and type for SSA operand")?;
        let ty = self.parse_type_here()?;
        let arg = self.ir.add_block_arg(block, ty, None);
        self.apply_loc(None, Some(arg))?;
        self.scopes.define(&mut self.ir, name, 0, &[arg], offset)
    }

    /// `%name` or `%name#N`.
    pub(crate) fn parse_use(&mut self) -> PResult<UnresolvedOperand<'a>> {
        if !self.at(TokenKind::PercentIdent) {
            return Err(self.wrong_token("expected SSA operand"));
        }
        let (name, offset) = (self.text(), self.tok.start);
        self.bump();
        // A result number is the next token when it is a `#` identifier, even after whitespace
        // (`%0 #1`), as in MLIR's `parseSSAUse`; it is decimal (`#0x1` lexes as `#0`, `x1`).
        let mut index = 0;
        if self.at(TokenKind::HashIdent) {
            index = self.text()[1..]
                .parse()
                .map_err(|_| ParseError::new(self.tok.start, "invalid SSA value result number"))?;
            self.bump();
        }
        Ok(UnresolvedOperand { name, index, offset })
    }

    fn parse_result_names(&mut self) -> PResult<Vec<ResultName<'a>>> {
        let mut results = Vec::new();
        if !self.at(TokenKind::PercentIdent) {
            return Ok(results);
        }
        loop {
            if !self.at(TokenKind::PercentIdent) {
                return Err(self.wrong_token("expected valid ssa identifier"));
            }
            let (name, offset) = (self.text(), self.tok.start);
            self.bump();
            let mut count = 1;
            if self.eat(TokenKind::Colon) {
                if !self.at(TokenKind::Integer) {
                    return Err(self.wrong_token("expected integer number of results"));
                }
                // MLIR reads the count as a 64-bit unsigned integer, decimal or `0x` hex.
                count = match unsigned_value(self.text()) {
                    Some(n) if n > 0 => n,
                    _ => {
                        return Err(ParseError::new(
                            self.tok.start,
                            "expected named operation to have at least 1 result",
                        ))
                    }
                };
                self.bump();
            }
            results.push(ResultName { name, count, offset });
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        self.expect(TokenKind::Equal, "expected '=' after SSA name")?;
        Ok(results)
    }

    /// Parses an op up to its region list (generic form) or completely (custom form).
    fn parse_op_start(&mut self) -> PResult<Started<'a, 'c>> {
        let start = self.tok.start;
        let results = self.parse_result_names()?;
        match self.tok.kind {
            TokenKind::String => {}
            TokenKind::BareIdent => {
                let op = self.parse_custom(start)?;
                self.bind_results(op, &results, start)?;
                return Ok(Started::Done(op));
            }
            _ => return Err(self.wrong_token("expected operation name in quotes")),
        }
        let name_off = self.tok.start;
        let name = decode_string(self.text(), name_off)
            .map_err(|o| ParseError::new(o, "unknown escape in string literal"))?;
        let name =
            String::from_utf8(name).map_err(|_| ParseError::new(name_off, "invalid operation name"))?;
        if name.is_empty() {
            return Err(ParseError::new(name_off, "empty operation name is invalid"));
        }
        if name.contains('\0') {
            return Err(ParseError::new(name_off, "null character not allowed in operation name"));
        }
        self.bump();
        let def = self.lookup_generic(&name)?;
        let loc = self.loc_at(name_off);
        let mut state = OperationState::new(self.ctx.intern_str(&name), def, loc);
        self.expect(TokenKind::LParen, "expected '(' to start operand list")?;
        let mut operands = Vec::new();
        if self.at(TokenKind::PercentIdent) {
            loop {
                operands.push(self.parse_use()?);
                if !self.eat(TokenKind::Comma) {
                    break;
                }
            }
        }
        self.expect(TokenKind::RParen, "expected ')' to end operand list")?;
        if self.eat(TokenKind::LSquare) {
            loop {
                if !self.at(TokenKind::CaretIdent) {
                    return Err(self.wrong_token("expected block name"));
                }
                let block = self.scopes.block_ref(&mut self.ir, self.tok.text(self.src), self.tok.start);
                state.successors.push(block);
                self.bump();
                if !self.eat(TokenKind::Comma) {
                    break;
                }
            }
            self.expect(TokenKind::RSquare, "expected ']' to end successor list")?;
        }
        if self.eat(TokenKind::Less) {
            let at = self.tok.start;
            let props = self.parse_attr_here()?;
            if props.as_dict().is_none() {
                return Err(ParseError::new(at, "expected a dictionary of properties"));
            }
            if def.is_some_and(|d| !d.has_properties()) {
                let mut s = String::new();
                crate::syntax::type_attr::print_attr(&mut s, props, &crate::syntax::type_attr::NoAliases);
                return Err(ParseError::new(
                    name_off,
                    format!(
                        "invalid properties {s} for op {name}: this operation does not support properties"
                    ),
                ));
            }
            state.properties = Some(props);
            self.expect(TokenKind::Greater, "expected '>' to close properties")?;
        }
        let pending = Pending { results, start, state, operands, regions: Vec::new() };
        if self.at(TokenKind::LParen) && self.peek_is(TokenKind::LBrace) {
            self.bump();
            self.bump();
            return Ok(Started::Regions(Box::new(pending)));
        }
        self.finish_generic(pending).map(Started::Done)
    }

    /// The definition of a generic op, or the error MLIR gives for ops of unknown dialects. An
    /// unknown op of a known dialect parses; the verifier rejects it (unless unregistered
    /// dialects are allowed: kiln's dialects are subsets of MLIR's), as MLIR's does.
    fn lookup_generic(&self, name: &str) -> PResult<Option<&'static OpDef>> {
        let def = self.ctx.registry().op(name);
        if def.is_some() || self.ctx.allows_unregistered() {
            return Ok(def);
        }
        match name.split_once('.') {
            Some((dialect, _)) if self.ctx.registry().dialect(dialect).is_some() => Ok(None),
            _ => Err(ParseError::new(
                self.tok.start,
                "operation being parsed with an unregistered dialect. If this is intended, please use \
                 -allow-unregistered-dialect with the MLIR tool used",
            )),
        }
    }

    /// Parses what follows a generic op's region list and creates the op.
    fn finish_generic(&mut self, p: Pending<'a, 'c>) -> PResult<OpId> {
        let Pending { results, start, mut state, operands, regions, .. } = p;
        if self.at(TokenKind::LBrace) {
            let dict = self.parse_attr_here()?;
            state.attrs.extend(dict.as_dict().unwrap_or_default().iter().map(|n| (n.name, n.value)));
        }
        self.expect(TokenKind::Colon, "expected ':' followed by operation type")?;
        let type_at = self.tok.start;
        let fn_ty = self.parse_type_here()?;
        let TypeKind::Function { inputs, results: result_types } = *fn_ty.kind() else {
            return Err(ParseError::new(type_at, "expected function type"));
        };
        if inputs.len() != operands.len() {
            let msg = format!(
                "expected {} operand type{} but had {}",
                operands.len(),
                plural(operands.len()),
                inputs.len()
            );
            return Err(ParseError::new(type_at, msg));
        }
        state.operands.reserve(operands.len());
        for (u, &ty) in operands.iter().zip(inputs) {
            let v = self.scopes.resolve(&mut self.ir, *u, ty, state.loc)?;
            state.operands.push(v);
        }
        state.result_types.extend_from_slice(result_types);
        self.move_inherent_attrs(&mut state);
        let op = self.create_with_regions(state, regions);
        self.apply_loc(Some(op), None)?;
        self.bind_results(op, &results, start)?;
        Ok(op)
    }

    /// For registered ops, moves inherent attributes written in the attribute dictionary into
    /// the properties (as MLIR does).
    pub(crate) fn move_inherent_attrs(&self, state: &mut OperationState<'c>) {
        let Some(def) = state.def else { return };
        let existing = state.properties.and_then(|p| p.as_dict()).unwrap_or_default();
        if !state.attrs.iter().any(|(n, _)| def.attr_spec(n).is_some()) {
            if existing.is_empty() {
                state.properties = None;
            }
            return;
        }
        let mut props: Vec<NamedAttr<'c>> = existing.to_vec();
        state.attrs.retain(|&(name, value)| {
            let inherent = def.attr_spec(name).is_some();
            if inherent {
                props.push(NamedAttr { name, value });
            }
            !inherent
        });
        state.properties = Some(self.ctx.dict_attr(&props));
    }

    /// Creates an op and attaches the blocks of its parsed regions.
    pub(crate) fn create_with_regions(
        &mut self,
        mut state: OperationState<'c>,
        regions: Vec<Vec<BlockId>>,
    ) -> OpId {
        state.num_regions = regions.len();
        let op = self.ir.create_op(state);
        for (i, blocks) in regions.into_iter().enumerate() {
            let region = self.ir.regions(op)[i];
            for b in blocks {
                self.ir.append_block(region, b);
            }
        }
        op
    }

    fn bind_results(&mut self, op: OpId, names: &[ResultName<'a>], start: usize) -> PResult<()> {
        // MLIR sums the counts in a `size_t`.
        let provided = names.iter().fold(0u64, |sum, r| sum.wrapping_add(r.count));
        let defined = self.ir.results(op).len();
        if names.is_empty() {
            return Ok(());
        }
        // (Counts that wrap the sum around to the right total are refused too.)
        if provided != defined as u64 || names.iter().any(|r| r.count > defined as u64) {
            return Err(ParseError::new(
                start,
                format!("operation defines {defined} results but was provided {provided} to bind"),
            ));
        }
        let mut next = 0;
        for r in names {
            let values: Vec<_> = self.ir.results(op)[next..next + r.count as usize].to_vec();
            self.scopes.define(&mut self.ir, r.name, 0, &values, r.offset)?;
            next += r.count as usize;
        }
        Ok(())
    }

    /// Parses a custom-form op with its registered [`CustomSyntax`](crate::asm::CustomSyntax).
    fn parse_custom(&mut self, _start: usize) -> PResult<OpId> {
        let (word, name_off) = (self.text(), self.tok.start);
        let def = self.lookup_custom(word, name_off)?;
        let Some(syntax) = def.syntax else {
            return Err(ParseError::new(name_off, format!("custom op '{word}' is unknown")));
        };
        if self.custom_depth >= MAX_CUSTOM_DEPTH {
            return Err(ParseError::new(name_off, "custom operations are nested too deeply"));
        }
        self.bump();
        let loc = self.loc_at(name_off);
        let mut state = OperationState::new(def.name, Some(def), loc);
        let saved = std::mem::take(&mut self.custom_regions);
        self.custom_depth += 1;
        if let Some(d) = syntax.default_dialect {
            self.default_dialects.push(d);
        }
        let result = (syntax.parse)(self, &mut state);
        if syntax.default_dialect.is_some() {
            self.default_dialects.pop();
        }
        self.custom_depth -= 1;
        let regions = std::mem::replace(&mut self.custom_regions, saved);
        result?;
        let op = self.create_with_regions(state, regions);
        self.apply_loc(Some(op), None)?;
        Ok(op)
    }

    fn lookup_custom(&self, word: &str, name_off: usize) -> PResult<&'static OpDef> {
        let registry = self.ctx.registry();
        if let Some((dialect, _)) = word.split_once('.') {
            if let Some(def) = registry.op(word) {
                return Ok(def);
            }
            if registry.dialect(dialect).is_none() {
                return Err(ParseError::new(
                    name_off,
                    format!("Dialect `{dialect}' not found for custom op '{word}' "),
                ));
            }
            return Err(ParseError::new(name_off, format!("custom op '{word}' is unknown")));
        }
        if let Some(&d) = self.default_dialects.last() {
            if let Some(def) = registry.op(&format!("{d}.{word}")) {
                return Ok(def);
            }
        }
        registry.op(&format!("builtin.{word}")).ok_or_else(|| {
            ParseError::new(
                name_off,
                format!("custom op '{word}' is unknown (tried 'builtin.{word}' as well)"),
            )
        })
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
