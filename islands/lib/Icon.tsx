// An inline SVG icon; decorative unless given a label.
export function Icon({ path, label, size = 24 }: { path: string; label?: string; size?: number }) {
  return (
    <svg className="icon" width={size} height={size} viewBox="0 0 24 24" aria-hidden={label ? undefined : true} role={label ? "img" : undefined} aria-label={label}>
      <path fill="currentColor" d={path} />
    </svg>
  );
}
