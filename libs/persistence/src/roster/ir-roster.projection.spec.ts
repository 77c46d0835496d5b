import { personKey } from './ir-roster.projection';

describe('personKey', () => {
  it('ignores case, accents, punctuation and spacing but keeps suffixes', () => {
    expect(personKey('John D. Milton Jr.')).toBe('john d milton jr');
    expect(personKey('  JOHN  D MILTON, JR ')).toBe('john d milton jr');
    expect(personKey('José Álvarez-Núñez')).toBe('jose alvarez nunez');
    expect(personKey('John D. Baker II')).not.toBe(personKey('John D. Baker'));
  });
});
