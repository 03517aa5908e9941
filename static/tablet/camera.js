/* The tablet's camera: a live preview, a capture on tap, and a capture by itself when a card is held
 * still under the camera.
 *
 * Still-card detection compares small grey thumbnails of successive frames (80x60, sampled every
 * SAMPLE_MS): a capture needs movement first (a card placed: the hand moves), then STILL_SAMPLES calm
 * samples in a row, something card-like in view (enough bright pixels: a white card face on the felt),
 * and a view that differs from the last capture (a card left lying there is not read twice).  The
 * captured frame, full size, goes to onCapture as a JPEG Blob; the server reads it like any scan.
 * Loaded before tablet.js, which uses it as window.TabletCamera.
 */
(function () {
  "use strict";
  const SAMPLE_MS = 150;
  const W = 80, H = 60; // the thumbnail compared between frames
  const MOTION = 10; // mean grey difference (0-255) that counts as movement
  const STILL = 3; // ... and as calm
  const STILL_SAMPLES = 3; // calm samples in a row before a capture (~0.45 s held still)
  const BRIGHT = 170, CARD_FRACTION = 0.04; // a card face: at least 4% of the view brighter than 170
  const CHANGED = 12; // mean difference from the last capture for a new card

  let stream = null, video = null, timer = null, onCapture = null, canAuto = () => false, onState = () => {};
  let auto = true, prev = null, lastShot = null, moved = false, calm = 0;
  const thumbCanvas = document.createElement("canvas");
  thumbCanvas.width = W;
  thumbCanvas.height = H;
  const thumbCtx = thumbCanvas.getContext("2d", { willReadFrequently: true });

  function thumb() {
    thumbCtx.drawImage(video, 0, 0, W, H);
    const px = thumbCtx.getImageData(0, 0, W, H).data;
    const grey = new Uint8Array(W * H);
    for (let i = 0; i < W * H; i++) grey[i] = (px[4 * i] * 77 + px[4 * i + 1] * 150 + px[4 * i + 2] * 29) >> 8;
    return grey;
  }
  const diff = (a, b) => {
    let s = 0;
    for (let i = 0; i < a.length; i++) s += Math.abs(a[i] - b[i]);
    return s / a.length;
  };
  const bright = (g) => g.reduce((n, v) => n + (v > BRIGHT ? 1 : 0), 0) / g.length;

  function tick() {
    if (!video || video.readyState < 2) return;
    const g = thumb();
    if (prev) {
      const d = diff(g, prev);
      if (d > MOTION) { moved = true; calm = 0; } else if (d < STILL) calm += 1; else calm = 0;
    }
    prev = g;
    const card = bright(g) >= CARD_FRACTION;
    const isNew = !lastShot || diff(g, lastShot) > CHANGED;
    onState(!auto ? "" : !card ? "waiting for a card" : !isNew ? "card read: place the next one" :
      calm >= STILL_SAMPLES ? "" : "hold the card still");
    if (auto && moved && calm >= STILL_SAMPLES && card && isNew && canAuto()) {
      moved = false;
      calm = 0;
      lastShot = g;
      capture();
    }
  }

  function capture() {
    if (!video || video.readyState < 2) return;
    const c = document.createElement("canvas");
    c.width = video.videoWidth;
    c.height = video.videoHeight;
    c.getContext("2d").drawImage(video, 0, 0);
    lastShot = thumb();
    c.toBlob((blob) => blob && onCapture(blob), "image/jpeg", 0.92);
  }

  async function start(videoEl, opts) {
    if (stream) return true;
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) throw new Error("this browser has no camera access");
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment", width: { ideal: 1280 } }, audio: false });
    video = videoEl;
    video.srcObject = stream;
    await video.play().catch(() => null);
    onCapture = opts.onCapture;
    canAuto = opts.canAuto || canAuto;
    onState = opts.onState || onState;
    prev = null;
    moved = true; // a card already lying there when the camera starts is read once it is still
    calm = 0;
    timer = setInterval(tick, SAMPLE_MS);
    return true;
  }
  function stop() {
    clearInterval(timer);
    timer = null;
    if (stream) stream.getTracks().forEach((t) => t.stop());
    stream = null;
    if (video) video.srcObject = null;
    video = null;
    lastShot = null;
  }
  window.TabletCamera = {
    start, stop, capture,
    running: () => !!stream,
    setAuto: (on) => { auto = on; },
    auto: () => auto,
  };
})();
