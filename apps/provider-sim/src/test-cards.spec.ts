import { CARD_FOR_OUTCOME, TEST_CARDS, findTestCard } from './test-cards';

function passesLuhn(number: string): boolean {
  let sum = 0;
  [...number].reverse().forEach((character, index) => {
    let digit = Number(character);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  });
  return sum % 10 === 0;
}

describe('test cards', () => {
  it('are unique 16-digit, Luhn-valid numbers', () => {
    const numbers = TEST_CARDS.map((card) => card.number);
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const number of numbers) {
      expect(number).toMatch(/^\d{16}$/);
      expect(passesLuhn(number)).toBe(true);
    }
  });

  it('cover success (reusable), declined, insufficient funds and success with a non-reusable authorization', () => {
    expect(findTestCard('4084084084084081')).toMatchObject({ checkoutOutcome: 'success', reusable: true });
    expect(findTestCard('4000000000000002')).toMatchObject({ checkoutOutcome: 'declined' });
    expect(findTestCard('4000000000009995')).toMatchObject({ checkoutOutcome: 'insufficient_funds' });
    expect(findTestCard('5060990580000212')).toMatchObject({ checkoutOutcome: 'success', reusable: false });
    expect(findTestCard('5399838383838381')).toMatchObject({
      checkoutOutcome: 'success',
      reusable: true,
      recurringOutcome: 'insufficient_funds',
    });
  });

  it('are found with spaces or dashes, and unknown numbers are not', () => {
    expect(findTestCard('4084 0840 8408 4081')?.number).toBe('4084084084084081');
    expect(findTestCard('4084-0840-8408-4081')?.number).toBe('4084084084084081');
    expect(findTestCard('4111111111111111')).toBeUndefined();
  });

  it('map each control outcome onto a card with that checkout behaviour', () => {
    for (const [outcome, card] of Object.entries(CARD_FOR_OUTCOME)) expect(card.checkoutOutcome).toBe(outcome);
  });
});
