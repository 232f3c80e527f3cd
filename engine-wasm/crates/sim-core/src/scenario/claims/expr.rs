//! A claim's metric: a small arithmetic expression over figures of the run's
//! windows (scenarios/README.md, "Paper claims"). Figures are named as in the runner's report
//! (`windows[1].vcs.vc1.acr_mbps`, `window.ports.l2.queue_max`,
//! `totals.ports.l2.cells_lost`); numbers, `+ - * /`, parentheses and `min`,
//! `max`, `abs` combine them. Ids may contain `-`, so a binary minus needs a
//! space before it (`a - b`).

/// Which window a figure is read over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WindowRef {
    /// The claim's `windows[i]` (`window` is `windows[0]`).
    Index(usize),
    /// The whole run.
    Totals,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    Min,
    Max,
    Abs,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Num(f64),
    /// A report figure over a window, e.g. `vcs.vc1.acr_mbps`.
    Ref(WindowRef, String),
    Neg(Box<Expr>),
    Bin(Op, Box<Expr>, Box<Expr>),
    Call(Func, Vec<Expr>),
}

/// The prefix of a figure read from the unchanged run, in a thing to try's check
/// (`base.window.ports.l3.queue_max`); the figure keeps it in its name.
pub const BASE: &str = "base.";

/// Longest metric text accepted.
pub const MAX_METRIC_CHARS: usize = 1000;
/// Deepest nesting accepted (parentheses, calls, unary minus).
const MAX_DEPTH: usize = 32;

impl Expr {
    /// Every figure the expression reads.
    pub fn refs(&self, out: &mut Vec<(WindowRef, String)>) {
        match self {
            Expr::Num(_) => {}
            Expr::Ref(w, f) => out.push((*w, f.clone())),
            Expr::Neg(e) => e.refs(out),
            Expr::Bin(_, a, b) => {
                a.refs(out);
                b.refs(out);
            }
            Expr::Call(_, args) => args.iter().for_each(|a| a.refs(out)),
        }
    }

    /// The value, reading figures through `figure` (None when a figure has no value).
    pub fn eval(&self, figure: &dyn Fn(WindowRef, &str) -> Option<f64>) -> Option<f64> {
        let v = match self {
            Expr::Num(x) => *x,
            Expr::Ref(w, f) => figure(*w, f)?,
            Expr::Neg(e) => -e.eval(figure)?,
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.eval(figure)?, b.eval(figure)?);
                match op {
                    Op::Add => a + b,
                    Op::Sub => a - b,
                    Op::Mul => a * b,
                    Op::Div => a / b,
                }
            }
            Expr::Call(f, args) => {
                let vals = args.iter().map(|a| a.eval(figure)).collect::<Option<Vec<f64>>>()?;
                match f {
                    Func::Min => vals.iter().copied().fold(f64::INFINITY, f64::min),
                    Func::Max => vals.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                    Func::Abs => vals[0].abs(),
                }
            }
        };
        v.is_finite().then_some(v)
    }
}

/// Parses a metric; `windows` is how many windows the claim declares.
pub fn parse(text: &str, windows: usize) -> Result<Expr, String> {
    parse_inner(text, windows, false)
}

/// Parses a thing to try's check: as [`parse`], and a figure may also be read
/// from the unchanged run with the [`BASE`] prefix (`base.window.…`).
pub fn parse_with_base(text: &str, windows: usize) -> Result<Expr, String> {
    parse_inner(text, windows, true)
}

fn parse_inner(text: &str, windows: usize, base: bool) -> Result<Expr, String> {
    if text.chars().count() > MAX_METRIC_CHARS {
        return Err(format!("longer than {MAX_METRIC_CHARS} characters"));
    }
    let mut p = Parser { s: text.as_bytes(), i: 0, windows, depth: 0, base };
    let e = p.expr()?;
    p.skip_ws();
    if p.i < p.s.len() {
        return Err(format!("unexpected '{}' at character {}", p.rest(), p.i + 1));
    }
    Ok(e)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    windows: usize,
    depth: usize,
    /// Whether `base.` figures are allowed.
    base: bool,
}

fn is_path_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':' | b'-')
}

impl Parser<'_> {
    fn rest(&self) -> String {
        String::from_utf8_lossy(&self.s[self.i..]).chars().take(20).collect()
    }

    fn skip_ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.skip_ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn deeper(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err(format!("nested deeper than {MAX_DEPTH}"))
        } else {
            Ok(())
        }
    }

    fn expr(&mut self) -> Result<Expr, String> {
        let mut left = self.term()?;
        loop {
            let op = if self.eat(b'+') {
                Op::Add
            } else if self.eat(b'-') {
                Op::Sub
            } else {
                return Ok(left);
            };
            let right = self.term()?;
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
    }

    fn term(&mut self) -> Result<Expr, String> {
        let mut left = self.factor()?;
        loop {
            let op = if self.eat(b'*') {
                Op::Mul
            } else if self.eat(b'/') {
                Op::Div
            } else {
                return Ok(left);
            };
            let right = self.factor()?;
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
    }

    fn factor(&mut self) -> Result<Expr, String> {
        self.deeper()?;
        let e = self.factor_inner();
        self.depth -= 1;
        e
    }

    fn factor_inner(&mut self) -> Result<Expr, String> {
        self.skip_ws();
        let Some(&c) = self.s.get(self.i) else {
            return Err("ends where a number or a figure was expected".into());
        };
        if c == b'-' {
            self.i += 1;
            return Ok(Expr::Neg(Box::new(self.factor()?)));
        }
        if c == b'(' {
            self.i += 1;
            let e = self.expr()?;
            if !self.eat(b')') {
                return Err(format!("missing ')' at character {}", self.i + 1));
            }
            return Ok(e);
        }
        if c.is_ascii_digit() || c == b'.' {
            let start = self.i;
            while self.i < self.s.len()
                && (self.s[self.i].is_ascii_digit()
                    || matches!(self.s[self.i], b'.' | b'e' | b'E')
                    || (matches!(self.s[self.i], b'+' | b'-')
                        && matches!(self.s[self.i - 1], b'e' | b'E')))
            {
                self.i += 1;
            }
            let text = String::from_utf8_lossy(&self.s[start..self.i]);
            return text
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .map(Expr::Num)
                .ok_or_else(|| format!("'{text}' is not a number"));
        }
        if c.is_ascii_alphabetic() {
            let prefix = if self.s[self.i..].starts_with(BASE.as_bytes()) {
                if !self.base {
                    return Err("'base.' reads the unchanged run: only a thing to try's check \
                                may use it"
                        .into());
                }
                self.i += BASE.len();
                BASE
            } else {
                ""
            };
            let start = self.i;
            while self.i < self.s.len() && self.s[self.i].is_ascii_alphanumeric() {
                self.i += 1;
            }
            let word = String::from_utf8_lossy(&self.s[start..self.i]).to_string();
            let func = match word.as_str() {
                "min" => Some(Func::Min),
                "max" => Some(Func::Max),
                "abs" => Some(Func::Abs),
                _ => None,
            };
            if let Some(func) = func.filter(|_| prefix.is_empty()) {
                if !self.eat(b'(') {
                    return Err(format!("{word} needs '(' after it"));
                }
                let mut args = vec![self.expr()?];
                while self.eat(b',') {
                    args.push(self.expr()?);
                }
                if !self.eat(b')') {
                    return Err(format!("missing ')' after the arguments of {word}"));
                }
                if func == Func::Abs && args.len() != 1 {
                    return Err("abs takes one argument".into());
                }
                return Ok(Expr::Call(func, args));
            }
            let window = match word.as_str() {
                "totals" => WindowRef::Totals,
                "window" => {
                    if self.windows != 1 {
                        return Err(format!(
                            "'window' needs exactly one window (this claim has {}); use windows[i]",
                            self.windows
                        ));
                    }
                    WindowRef::Index(0)
                }
                "windows" => {
                    if !self.eat(b'[') {
                        return Err("windows needs an index: windows[0]".into());
                    }
                    self.skip_ws();
                    let start = self.i;
                    while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                        self.i += 1;
                    }
                    let n: usize = String::from_utf8_lossy(&self.s[start..self.i])
                        .parse()
                        .map_err(|_| "windows[…] needs a whole number".to_string())?;
                    if !self.eat(b']') {
                        return Err("missing ']' after the window index".into());
                    }
                    if n >= self.windows {
                        return Err(format!(
                            "windows[{n}] does not exist (this claim has {} window{})",
                            self.windows,
                            if self.windows == 1 { "" } else { "s" }
                        ));
                    }
                    WindowRef::Index(n)
                }
                _ => {
                    return Err(format!(
                        "'{word}' is neither a figure (window., windows[i]., totals.) nor min, max, abs"
                    ))
                }
            };
            if self.s.get(self.i) != Some(&b'.') {
                return Err(format!(
                    "'{word}' needs a figure after it, e.g. {word}.vcs.vc1.acr_mbps"
                ));
            }
            self.i += 1;
            let start = self.i;
            while self.i < self.s.len() && is_path_char(self.s[self.i]) {
                self.i += 1;
            }
            let field = String::from_utf8_lossy(&self.s[start..self.i]).to_string();
            if field.is_empty() || field.ends_with('.') || field.contains("..") {
                return Err(format!("'{field}' is not a figure name"));
            }
            return Ok(Expr::Ref(window, format!("{prefix}{field}")));
        }
        Err(format!("unexpected '{}' at character {}", self.rest(), self.i + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_figures_and_arithmetic() {
        let e = parse("windows[1].vcs.vc1.acr_mbps / windows[0].vcs.vc-2.acr_mbps", 2).unwrap();
        let mut refs = Vec::new();
        e.refs(&mut refs);
        assert_eq!(
            refs,
            vec![
                (WindowRef::Index(1), "vcs.vc1.acr_mbps".to_string()),
                (WindowRef::Index(0), "vcs.vc-2.acr_mbps".to_string())
            ]
        );
        let v = e.eval(&|w, _| Some(if w == WindowRef::Index(1) { 140.0 } else { 70.0 }));
        assert_eq!(v, Some(2.0));
        let e = parse("max(abs(window.fairness - 1), -2 * 3e-1) + (totals.x)", 1).unwrap();
        assert_eq!(e.eval(&|_, f| Some(if f == "x" { 1.0 } else { 0.5 })), Some(1.5));
    }

    #[test]
    fn refuses_with_a_reason() {
        assert!(parse("windows[2].x", 2).unwrap_err().contains("does not exist"));
        assert!(parse("window.x", 2).unwrap_err().contains("exactly one window"));
        assert!(parse("foo.x", 1).unwrap_err().contains("neither a figure"));
        assert!(parse("window.x +", 1).unwrap_err().contains("ends"));
        assert!(parse("(window.x", 1).unwrap_err().contains("missing ')'"));
        assert!(parse(&"(".repeat(100), 1).unwrap_err().contains("nested"));
        assert!(parse("window.x 3", 1).unwrap_err().contains("unexpected"));
        // A division by zero has no value rather than an infinite one.
        assert_eq!(parse("1 / window.x", 1).unwrap().eval(&|_, _| Some(0.0)), None);
        assert!(parse("base.window.x", 1).unwrap_err().contains("only a thing to try"));
        assert!(parse_with_base("base.min(1)", 1).unwrap_err().contains("neither a figure"));
    }

    #[test]
    fn a_check_reads_the_unchanged_run_under_base() {
        let e = parse_with_base("window.ports.l3.queue_max / base.totals.ports.l3.queue_max", 1)
            .unwrap();
        let mut refs = Vec::new();
        e.refs(&mut refs);
        assert_eq!(
            refs,
            vec![
                (WindowRef::Index(0), "ports.l3.queue_max".to_string()),
                (WindowRef::Totals, "base.ports.l3.queue_max".to_string())
            ]
        );
        let v = e.eval(&|_, f| Some(if f.starts_with(BASE) { 4.0 } else { 1.0 }));
        assert_eq!(v, Some(0.25));
    }
}
