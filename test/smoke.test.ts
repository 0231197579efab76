import { expect, test } from 'vitest';
test('happy-dom is the environment', () => { expect(typeof document).toBe('object'); });
