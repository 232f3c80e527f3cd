//! Output files that never cost a user the file they had: each is written to a
//! temporary file beside its place and renamed over it only when the run has
//! succeeded. A refused scenario, a failed write or a killed run leaves the
//! previous file as it was (a killed run may leave the temporary file, never a
//! truncated output). Every file `abrsim` writes goes through [`Output`].

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// A file being written to a temporary name next to `dest`.
pub struct Output {
    dest: PathBuf,
    temp: PathBuf,
    out: Option<BufWriter<File>>,
}

impl Output {
    /// Starts `dest`: creates its directory if needed and a temporary file
    /// beside it (`.NAME.PID.tmp`, so the rename stays on one file system).
    pub fn create(dest: &Path) -> Result<Output, String> {
        let dir = dest.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let name = dest.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = name.ok_or_else(|| format!("{}: not a file name", dest.display()))?;
        let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let file = File::create(&temp).map_err(|e| format!("{}: {e}", temp.display()))?;
        Ok(Output { dest: dest.to_path_buf(), temp, out: Some(BufWriter::new(file)) })
    }

    /// Where the text goes until [`Output::commit`].
    pub fn writer(&mut self) -> &mut BufWriter<File> {
        self.out.as_mut().expect("an output is written only before it is committed")
    }

    /// The file's final place.
    pub fn dest(&self) -> &Path {
        &self.dest
    }

    /// Flushes the text to disk and renames it into place, replacing what was there.
    pub fn commit(mut self) -> Result<(), String> {
        let out = self.out.take().expect("committed once");
        let file =
            out.into_inner().map_err(|e| format!("{}: {}", self.dest.display(), e.error()))?;
        file.sync_all().map_err(|e| format!("{}: {e}", self.dest.display()))?;
        drop(file);
        std::fs::rename(&self.temp, &self.dest)
            .map_err(|e| format!("{}: cannot replace it: {e}", self.dest.display()))
    }
}

impl Drop for Output {
    /// An output never committed (a refusal, an error) leaves no trace.
    fn drop(&mut self) {
        if self.out.take().is_some() {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("abrsim-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_file_is_replaced_only_on_commit() {
        let dir = scratch("commit");
        let dest = dir.join("samples.csv");
        std::fs::write(&dest, "good\n").unwrap();
        let mut out = Output::create(&dest).unwrap();
        writeln!(out.writer(), "half").unwrap();
        drop(out);
        assert_eq!(std::fs::read_to_string(&dest).unwrap(), "good\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary file left");
        let mut out = Output::create(&dest).unwrap();
        writeln!(out.writer(), "new").unwrap();
        out.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&dest).unwrap(), "new\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
