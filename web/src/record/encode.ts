/**
 * Encoding a recording's frames: a video through the browser's WebCodecs encoder, written into a
 * WebM (or, where only H.264 encodes, MP4) container by Mediabunny, and an animated GIF by gifenc.
 * Each frame is drawn on the canvas by `draw(k)` before it is taken, and stamped at k / fps: the
 * clip's timing comes from the frame's index, never from the wall clock.
 */
import { applyPalette, GIFEncoder, quantize } from 'gifenc'
import {
  BufferTarget,
  CanvasSource,
  getFirstEncodableVideoCodec,
  Mp4OutputFormat,
  Output,
  QUALITY_HIGH,
  WebMOutputFormat,
} from 'mediabunny'

export interface EncodeJob {
  canvas: HTMLCanvasElement
  frames: number
  fps: number
  draw(k: number): Promise<void>
  onProgress?(done: number): void
  signal?: AbortSignal
}

export interface Clip {
  blob: Blob
  extension: string
  /** What encoded it, e.g. "VP9 in WebM". */
  codec: string
}

function checkAbort(signal?: AbortSignal): void {
  if (signal?.aborted) throw new Error('the recording was cancelled')
}

export async function encodeVideo(job: EncodeJob): Promise<Clip> {
  const { canvas, frames, fps } = job
  const size = { width: canvas.width, height: canvas.height }
  // VP9 or VP8 in WebM where the browser encodes them; H.264 in MP4 otherwise (Safari).
  const webm = await getFirstEncodableVideoCodec(['vp9', 'vp8', 'av1'], size)
  const avc = webm ? null : await getFirstEncodableVideoCodec(['avc'], size)
  const codec = webm ?? avc
  if (!codec)
    throw new Error(
      `this browser has no video encoder for ${size.width}×${size.height} (VP9, VP8, AV1 or H.264): export a GIF instead`,
    )
  const format = webm ? new WebMOutputFormat() : new Mp4OutputFormat({ fastStart: 'in-memory' })
  const target = new BufferTarget()
  const output = new Output({ format, target })
  const source = new CanvasSource(canvas, { codec, bitrate: QUALITY_HIGH, keyFrameInterval: 2 })
  output.addVideoTrack(source, { frameRate: fps })
  await output.start()
  try {
    for (let k = 0; k < frames; k++) {
      checkAbort(job.signal)
      await job.draw(k)
      await source.add(k / fps, 1 / fps)
      job.onProgress?.(k + 1)
    }
    await output.finalize()
  } catch (error) {
    await output.cancel()
    throw error
  }
  if (!target.buffer) throw new Error('the video encoder produced no file')
  return {
    blob: new Blob([target.buffer], { type: format.mimeType }),
    extension: format.fileExtension,
    codec: `${codec.toUpperCase()} in ${webm ? 'WebM' : 'MP4'}`,
  }
}

export async function encodeGif(job: EncodeJob): Promise<Clip> {
  const { canvas, frames, fps } = job
  const ctx = canvas.getContext('2d', { willReadFrequently: true })
  if (!ctx) throw new Error('this browser gives no 2D canvas to read the frames from')
  const gif = GIFEncoder()
  const delay = Math.round(1000 / fps)
  for (let k = 0; k < frames; k++) {
    checkAbort(job.signal)
    await job.draw(k)
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height)
    const palette = quantize(data, 256)
    gif.writeFrame(applyPalette(data, palette), canvas.width, canvas.height, {
      palette,
      delay,
      repeat: 0,
    })
    job.onProgress?.(k + 1)
  }
  gif.finish()
  return { blob: new Blob([gif.bytes()], { type: 'image/gif' }), extension: '.gif', codec: 'GIF' }
}
