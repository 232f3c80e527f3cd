//! Sample rows to files, for the native runners (`abrsim run --samples`, `abrlab.run(...,
//! samples_to=...)`).
//!
//! - [`AtomicFile`]: an output written under a temporary name beside its destination and renamed
//!   into place only when the writer commits it, so a failed or interrupted run never leaves a
//!   partial file where a finished one is expected.
//! - [`ParquetSamples`]: the sample rows streamed to a Parquet file as the run makes them, one
//!   required DOUBLE column per sample column (NaN where a value is undefined), in row groups of
//!   at most [`GROUP_VALUES`] values: memory stays bounded by one row group whatever the run's
//!   length and width.

use parquet::basic::{Compression, Repetition, Type as PhysicalType};
use parquet::data_type::DoubleType;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Values buffered before a row group is written (32 MB of f64).
pub const GROUP_VALUES: usize = 4_000_000;

/// A file written to `.NAME.tmp-PID` beside `path` and renamed to `path` by [`commit`]; dropped
/// without a commit, the temporary file is removed.
///
/// [`commit`]: AtomicFile::commit
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    done: bool,
}

impl AtomicFile {
    /// Creates the temporary file (and the folders above `path`); the file to write.
    pub fn create(path: &Path) -> Result<(AtomicFile, File), String> {
        let say = |e: std::io::Error| format!("{}: {e}", path.display());
        let name =
            path.file_name().ok_or_else(|| format!("{}: not a file name", path.display()))?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(say)?;
        }
        let tmp =
            path.with_file_name(format!(".{}.tmp-{}", name.to_string_lossy(), std::process::id()));
        let file = File::create(&tmp).map_err(say)?;
        Ok((AtomicFile { path: path.to_path_buf(), tmp, done: false }, file))
    }

    /// Renames the finished file into place.
    pub fn commit(mut self) -> Result<(), String> {
        std::fs::rename(&self.tmp, &self.path)
            .map_err(|e| format!("{}: {e}", self.path.display()))?;
        self.done = true;
        Ok(())
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Sample rows streamed to a Parquet file.
pub struct ParquetSamples {
    out: AtomicFile,
    writer: SerializedFileWriter<BufWriter<File>>,
    /// The buffered row group, column by column.
    columns: Vec<Vec<f64>>,
    group_rows: usize,
    rows: usize,
}

impl ParquetSamples {
    /// A file at `path` (written under a temporary name until [`finish`]) with these columns.
    ///
    /// [`finish`]: ParquetSamples::finish
    pub fn create(path: &Path, names: &[String]) -> Result<ParquetSamples, String> {
        let say = |e: parquet::errors::ParquetError| format!("{}: {e}", path.display());
        let fields = names
            .iter()
            .map(|n| {
                Type::primitive_type_builder(n, PhysicalType::DOUBLE)
                    .with_repetition(Repetition::REQUIRED)
                    .build()
                    .map(Arc::new)
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(say)?;
        let schema =
            Type::group_type_builder("samples").with_fields(fields).build().map_err(say)?;
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_dictionary_enabled(false)
            .set_statistics_enabled(EnabledStatistics::Chunk)
            .build();
        let (out, file) = AtomicFile::create(path)?;
        let writer =
            SerializedFileWriter::new(BufWriter::new(file), Arc::new(schema), Arc::new(props))
                .map_err(say)?;
        let group_rows = (GROUP_VALUES / names.len().max(1)).max(1);
        Ok(ParquetSamples {
            out,
            writer,
            columns: names.iter().map(|_| Vec::with_capacity(group_rows)).collect(),
            group_rows,
            rows: 0,
        })
    }

    /// Adds flat row-major rows.
    pub fn add(&mut self, rows: &[f64]) -> Result<(), String> {
        let width = self.columns.len();
        if width == 0 {
            return Ok(());
        }
        for row in rows.chunks_exact(width) {
            for (column, &x) in self.columns.iter_mut().zip(row) {
                column.push(x);
            }
            self.rows += 1;
            if self.columns[0].len() >= self.group_rows {
                self.flush()?;
            }
        }
        Ok(())
    }

    /// The rows added so far.
    pub fn rows(&self) -> usize {
        self.rows
    }

    fn flush(&mut self) -> Result<(), String> {
        if self.columns.first().is_none_or(Vec::is_empty) {
            return Ok(());
        }
        let path = self.out.path.display().to_string();
        let say = |e: parquet::errors::ParquetError| format!("{path}: {e}");
        let mut group = self.writer.next_row_group().map_err(say)?;
        for values in &mut self.columns {
            let mut column = group.next_column().map_err(say)?.ok_or("a column too few")?;
            column.typed::<DoubleType>().write_batch(values, None, None).map_err(say)?;
            column.close().map_err(say)?;
            values.clear();
        }
        group.close().map_err(say)?;
        Ok(())
    }

    /// Writes what is buffered and the footer, and renames the file into place.
    pub fn finish(mut self) -> Result<(), String> {
        self.flush()?;
        let path = self.out.path.display().to_string();
        let mut inner = self.writer.into_inner().map_err(|e| format!("{path}: {e}"))?;
        inner.flush().map_err(|e| format!("{path}: {e}"))?;
        drop(inner);
        self.out.commit()
    }
}

/// A run's sample rows to a Parquet file, fed the batches a runner's row callback sees: the file
/// is made when the first batch names the columns; the first error is kept for [`finish`].
///
/// [`finish`]: SampleFile::finish
pub struct SampleFile {
    path: PathBuf,
    out: Option<ParquetSamples>,
    error: Option<String>,
}

impl SampleFile {
    pub fn new(path: &Path) -> SampleFile {
        SampleFile { path: path.to_path_buf(), out: None, error: None }
    }

    /// Adds a batch of flat row-major rows of these columns.
    pub fn add(&mut self, columns: &[String], rows: &[f64]) {
        if self.error.is_some() {
            return;
        }
        if self.out.is_none() {
            match ParquetSamples::create(&self.path, columns) {
                Ok(out) => self.out = Some(out),
                Err(e) => {
                    self.error = Some(e);
                    return;
                }
            }
        }
        if let Some(Err(e)) = self.out.as_mut().map(|o| o.add(rows)) {
            self.error = Some(e);
        }
    }

    /// Finishes the file (renamed into place); the rows written. A run that made no batch at
    /// all leaves no file.
    pub fn finish(self) -> Result<usize, String> {
        if let Some(e) = self.error {
            return Err(e);
        }
        match self.out {
            Some(out) => {
                let rows = out.rows();
                out.finish().map(|()| rows)
            }
            None => Ok(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_appears_only_when_committed() {
        let dir = std::env::temp_dir().join(format!("sample-out-{}", std::process::id()));
        let path = dir.join("a/samples.parquet");
        let names: Vec<String> = ["t_ms", "x"].iter().map(|s| s.to_string()).collect();
        let mut out = ParquetSamples::create(&path, &names).unwrap();
        out.add(&[0.5, 1.0, 1.0, f64::NAN]).unwrap();
        assert!(!path.exists(), "nothing at the destination before finish");
        drop(out);
        assert!(!path.exists() && std::fs::read_dir(dir.join("a")).unwrap().count() == 0);
        let mut out = ParquetSamples::create(&path, &names).unwrap();
        out.add(&[0.5, 1.0, 1.0, f64::NAN]).unwrap();
        assert_eq!(out.rows(), 2);
        out.finish().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[..4], b"PAR1");
        assert_eq!(&bytes[bytes.len() - 4..], b"PAR1");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
