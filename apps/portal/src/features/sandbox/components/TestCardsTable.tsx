import { Table, Text } from '@mantine/core';

/** The provider simulator's test cards (docs/provider-simulator.md, "Test cards"). */
export const TEST_CARDS = [
  { number: '4084 0840 8408 4081', brand: 'Visa', checkout: 'Success (Approved)', later: 'Reusable: later charges and holds succeed', outcome: 'success' },
  { number: '4000 0000 0000 0002', brand: 'Visa', checkout: 'Failed (Declined)', later: 'No authorization', outcome: 'declined' },
  { number: '4000 0000 0000 9995', brand: 'Visa', checkout: 'Failed (Insufficient Funds)', later: 'No authorization', outcome: 'insufficient_funds' },
  { number: '5060 9905 8000 0212', brand: 'Verve', checkout: 'Success (Approved)', later: 'Not reusable: later charges are refused', outcome: null },
  { number: '5399 8383 8383 8381', brand: 'Mastercard', checkout: 'Success (Approved)', later: 'Reusable: later charges and holds fail (Insufficient Funds)', outcome: null },
] as const;

export function TestCardsTable() {
  return (
    <>
      <Table.ScrollContainer minWidth={720}>
        <Table striped aria-label="Test cards">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Number</Table.Th>
              <Table.Th>Brand</Table.Th>
              <Table.Th>On checkout</Table.Th>
              <Table.Th>Saved card (later charges, holds)</Table.Th>
              <Table.Th>Sandbox outcome</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {TEST_CARDS.map((card) => (
              <Table.Tr key={card.number}>
                <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                  {card.number}
                </Table.Td>
                <Table.Td>{card.brand}</Table.Td>
                <Table.Td>{card.checkout}</Table.Td>
                <Table.Td>{card.later}</Table.Td>
                <Table.Td ff="monospace">{card.outcome ?? '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="dimmed">
        Every card expires 12/30 with CVV 408. "Complete a checkout" below pays with the card of the outcome you choose.
      </Text>
    </>
  );
}
