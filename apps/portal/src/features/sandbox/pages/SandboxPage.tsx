import { Alert, Center, Loader, Stack, Text } from '@mantine/core';
import { useMe } from '../../auth';
import { PageHeader } from '../../../shared/layout';
import { CompleteCheckoutForm } from '../components/CompleteCheckoutForm';
import { DepositForm } from '../components/DepositForm';
import { DisputeForms } from '../components/DisputeForms';
import { SandboxSection } from '../components/SandboxSection';
import { ScansPanel } from '../components/ScansPanel';
import { TestCardsTable } from '../components/TestCardsTable';
import { TestClockPanel } from '../components/TestClockPanel';
import { canUseSandbox } from '../permissions';
import '../sandbox.css';

/**
 * Test-mode controls: test cards, completing checkouts, the scheduler's scans, disputes, virtual
 * account deposits and the test clock. In live mode it offers nothing (the API refuses it too).
 */
export function SandboxPage() {
  const me = useMe();
  if (me.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  const mode = me.data?.session.mode;
  const canAct = canUseSandbox(me.data?.account?.role);

  if (mode !== 'test') {
    return (
      <>
        <PageHeader title="Sandbox" description="Tools to try payment flows with test data." />
        <Alert color="yellow" title="The sandbox works in test mode only">
          You are in live mode, where nothing can be simulated: every payment is real. Switch to test mode (at the top of the page) to use the sandbox.
        </Alert>
      </>
    );
  }

  return (
    <>
      <PageHeader title="Sandbox" description="Try payment flows with test data: nothing here touches real money." />
      <Stack gap="md">
        {!canAct && (
          <Alert color="blue" title="Read only">
            Your role (viewer) can look at the sandbox but not use it. Ask a developer, admin or owner of the account.
          </Alert>
        )}
        <SandboxSection title="Test cards" description="Cards the provider sandbox accepts at the hosted checkout.">
          <TestCardsTable />
        </SandboxSection>
        <SandboxSection title="Test clock" description="Your test-mode time. Every time-driven rule (abandoned checkouts, scheduled charges, hold expiry, dispute deadlines, subscriptions, invoices) follows it.">
          <TestClockPanel canAct={canAct} />
        </SandboxSection>
        {canAct && (
          <>
            <SandboxSection title="Complete a checkout" description="Pay a pending test payment as a customer would, with the test card of the outcome.">
              <CompleteCheckoutForm />
            </SandboxSection>
            <SandboxSection title="Disputes" description="Open a chargeback on a paid test payment, then decide it as the customer's bank.">
              <DisputeForms />
            </SandboxSection>
            <SandboxSection title="Virtual account deposit" description="Send a test bank transfer into one of your test virtual accounts.">
              <DepositForm />
            </SandboxSection>
          </>
        )}
        <SandboxSection title="Scheduler scans" description="Run a scan now instead of waiting for the scheduler (at the test clock's time).">
          <ScansPanel canAct={canAct} />
        </SandboxSection>
        {!canAct && (
          <Text size="sm" c="dimmed">
            Completing checkouts, disputes and deposits need a developer, admin or owner.
          </Text>
        )}
      </Stack>
    </>
  );
}
