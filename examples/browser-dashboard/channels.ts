/** The four search channels the position chart draws, one line each. */
export const CHANNELS = [
  { key: 'desktop_position', label: 'Desktop', color: '#2563eb' },
  { key: 'mobile_position', label: 'Mobile', color: '#f59e0b' },
  { key: 'ai_mode_position', label: 'AI mode', color: '#8b5cf6' },
  { key: 'maps_position', label: 'Maps', color: '#ef4444' },
] as const;
