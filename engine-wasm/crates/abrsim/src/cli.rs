//! Value parsers the subcommands share: each turns one flag's text into its value or says what is
//! wrong with it (clap prints the message with the flag's name and exits with status 2).

/// `--until MS`: a number of milliseconds.
pub fn millis(v: &str) -> Result<f64, String> {
    v.trim().parse().map_err(|_| format!("'{v}' is not a number of milliseconds"))
}

/// `--window FROM:TO`: two numbers of milliseconds.
pub fn window(v: &str) -> Result<(f64, f64), String> {
    v.split_once(':')
        .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
        .ok_or_else(|| format!("'{v}' is not FROM:TO in milliseconds"))
}

/// `--set PATH=VALUE`: a dotted path and the value as typed.
pub fn assignment(v: &str) -> Result<(String, String), String> {
    let (path, raw) = v.split_once('=').ok_or_else(|| format!("'{v}' is not PATH=VALUE"))?;
    Ok((path.trim().to_string(), raw.trim().to_string()))
}

/// `--limit NAME=VALUE`: a limit's name and a number.
pub fn limit(v: &str) -> Result<(String, f64), String> {
    let (key, raw) = v.split_once('=').ok_or_else(|| format!("'{v}' is not NAME=VALUE"))?;
    let x = raw.trim().parse().map_err(|_| format!("{key}: '{raw}' is not a number"))?;
    Ok((key.trim().to_string(), x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_parse_or_say_what_is_wrong() {
        assert_eq!(millis("50"), Ok(50.0));
        assert!(millis("soon").unwrap_err().contains("milliseconds"));
        assert_eq!(window(" 10 : 50"), Ok((10.0, 50.0)));
        assert!(window("10-50").unwrap_err().contains("FROM:TO"));
        assert_eq!(assignment("vcs.vc1.rif = 1/16"), Ok(("vcs.vc1.rif".into(), "1/16".into())));
        assert!(assignment("vcs.vc1.rif").unwrap_err().contains("PATH=VALUE"));
        assert_eq!(limit("max_vcs=10"), Ok(("max_vcs".into(), 10.0)));
        assert!(limit("max_vcs=many").unwrap_err().contains("not a number"));
    }
}
