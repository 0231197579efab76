// D19: field checks for JSON bodies; each failure is a 400 that names the field.
import { fieldError } from './http';

type Body = Record<string, unknown>;

export function requiredString(body: Body, field: string, maxLength: number): string {
  const value = body[field];
  if (value === undefined || value === null || value === '') throw fieldError(field, 'is required', 'missing_field');
  if (typeof value !== 'string') throw fieldError(field, 'must be a string');
  if (value.length > maxLength) throw fieldError(field, `must be at most ${maxLength} characters`);
  return value;
}

export function optionalString(body: Body, field: string, maxLength: number): string | null {
  const value = body[field];
  if (value === undefined || value === null || value === '') return null;
  return requiredString(body, field, maxLength);
}

export function optionalBoolean(body: Body, field: string, fallback: boolean): boolean {
  const value = body[field];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw fieldError(field, 'must be true or false');
  return value;
}

export function optionalPositiveInt(body: Body, field: string): number | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) throw fieldError(field, 'must be a positive integer');
  return value;
}
