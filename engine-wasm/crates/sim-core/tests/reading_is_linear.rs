//! Reading scenario text costs in proportion to its length, whatever its shape:
//! a key of 400,000 characters over an array of 400,000 numbers once took
//! seconds (every element's path was spelled out in advance, a copy of the key
//! each). Held by what the reader allocates, counted by this binary's
//! allocator — a structural bound, unlike a wall-clock one; the times are
//! printed. Each worst case is about 4 MB, the input limit.

use sim_core::scenario::strict_json::parse;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Counts the bytes allocated (never freed: the total the reader asked for).
struct Counting;

static ALLOCATED: AtomicU64 = AtomicU64::new(0);

#[allow(unsafe_code, reason = "a global allocator is an unsafe trait; this one only counts")]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size() as u64, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above, i.e. from the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATED.fetch_add(new_size as u64, Ordering::Relaxed);
        // SAFETY: as for `dealloc`; the new size is the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const LIMIT: usize = 4_000_000;

/// Allocation per byte of text allowed: a parsed number in an array costs a few
/// hundred bytes (its `Value` and its share of the vector's doublings). The
/// quadratic reading allocated a copy of a 1.3-million-character key per
/// element, over 10⁵ times as much.
const BYTES_PER_BYTE: u64 = 500;

fn read(name: &str, text: &str) -> bool {
    assert!(text.len() <= LIMIT, "{name}: {} bytes", text.len());
    let before = ALLOCATED.load(Ordering::Relaxed);
    let clock = Instant::now();
    let ok = parse(text, LIMIT).is_ok();
    let ms = clock.elapsed().as_secs_f64() * 1000.0;
    let allocated = ALLOCATED.load(Ordering::Relaxed) - before;
    println!(
        "{name}: {} bytes read in {ms:.1} ms, {allocated} bytes allocated ({:.1} per byte){}",
        text.len(),
        allocated as f64 / text.len() as f64,
        if ok { "" } else { ", refused" }
    );
    assert!(
        allocated <= BYTES_PER_BYTE * text.len() as u64,
        "{name}: {allocated} bytes allocated for {} bytes of text",
        text.len()
    );
    ok
}

#[test]
fn a_long_key_over_a_long_array() {
    let key = "k".repeat(1_300_000);
    let zeros = vec!["0"; 1_300_000].join(",");
    assert!(read("long key × long array", &format!("{{\"{key}\": [{zeros}]}}")));
    // The same refused for a key given twice: the path is spelled out for the message only,
    // clipped.
    let (key, zeros) = (&key[..600_000], &zeros[..2_399_999]);
    let text = format!("{{\"a\": {{\"{key}\": [{zeros}], \"{key}\": 1}}}}");
    assert!(!read("long key twice", &text));
    let e = parse(&format!("{{\"{}\": [[0], 1], \"{0}\": 2}}", "k".repeat(500)), LIMIT);
    let e = e.unwrap_err();
    assert!(e[0].path.chars().count() <= 81 && e[0].message.contains("given twice"), "{e:?}");
}

#[test]
fn deep_nesting_with_long_keys_at_every_level() {
    // As deep as the JSON reader goes (it refuses past 128 levels: an object and an array
    // each level), each level's key long and each level an array of many elements.
    let key = "x".repeat(40_000);
    let mut text = String::from("0");
    for _ in 0..60 {
        text = format!("{{\"{key}\": [{}{text}]}}", "0,".repeat(5_000));
    }
    assert!(read("deep nesting", &text));
    let deeper = format!("{}{}", "[".repeat(LIMIT / 2), "]".repeat(LIMIT / 2));
    assert!(!read("too deep", &deeper));
}

#[test]
fn many_small_objects() {
    let one = r#"{"id": "a", "rif": 0.5},"#;
    let text = format!("{{\"vcs\": [{}{{}}]}}", one.repeat(LIMIT / one.len() - 1));
    assert!(read("many small objects", &text));
    let text = format!("[{}0]", "[0],".repeat(LIMIT / 4 - 1));
    assert!(read("many small arrays", &text));
}
