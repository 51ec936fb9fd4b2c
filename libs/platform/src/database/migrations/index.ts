import { CreateDevelopersAndApiKeys1764000000000 } from './1764000000000-CreateDevelopersAndApiKeys';
import { CreateIpAllowlistAndCustomers1764000050000 } from './1764000050000-CreateIpAllowlistAndCustomers';
import { CreateIdempotencyKeys1764000100000 } from './1764000100000-CreateIdempotencyKeys';
import { CreateRequestLogs1764000200000 } from './1764000200000-CreateRequestLogs';
import { CreatePortalIdentity1764000300000 } from './1764000300000-CreatePortalIdentity';
import { CreateEventsOutbox1764000400000 } from './1764000400000-CreateEventsOutbox';
import { CreateWalletsAndLedger1764000500000 } from './1764000500000-CreateWalletsAndLedger';
import { CreateSubaccounts1764000550000 } from './1764000550000-CreateSubaccounts';
import { CreatePayments1764000600000 } from './1764000600000-CreatePayments';
import { AddPaymentTriggeredAt1764000650000 } from './1764000650000-AddPaymentTriggeredAt';
import { CreateWebhooks1764000700000 } from './1764000700000-CreateWebhooks';
import { CreateRefunds1764000800000 } from './1764000800000-CreateRefunds';
import { CreatePaymentIntents1764000810000 } from './1764000810000-CreatePaymentIntents';
import { CreatePaymentBatches1764000900000 } from './1764000900000-CreatePaymentBatches';
import { KeyRequestLogsByRequestId1764001000000 } from './1764001000000-KeyRequestLogsByRequestId';
import { NumberWebhookAttemptsPerDelivery1764001070000 } from './1764001070000-NumberWebhookAttemptsPerDelivery';
import { AddPaymentIntentClaims1764001100000 } from './1764001100000-AddPaymentIntentClaims';
import { AddRefundRequestHash1764001110000 } from './1764001110000-AddRefundRequestHash';
import { AddPaymentBatchItemClaimToken1764001120000 } from './1764001120000-AddPaymentBatchItemClaimToken';
import { CreateOutboundMails1764001200000 } from './1764001200000-CreateOutboundMails';
import { ClassifyWebhookAttemptErrors1764001300000 } from './1764001300000-ClassifyWebhookAttemptErrors';
import { RenamePaymentRequestFingerprint1764001400000 } from './1764001400000-RenamePaymentRequestFingerprint';
import { CreateTransfers1764001500000 } from './1764001500000-CreateTransfers';
import { CreateTransferBatches1764001600000 } from './1764001600000-CreateTransferBatches';
import { CreateSettlements1764001700000 } from './1764001700000-CreateSettlements';
import { CreateVirtualAccounts1764001800000 } from './1764001800000-CreateVirtualAccounts';
import { CreateDisputes1764001900000 } from './1764001900000-CreateDisputes';
import { AddPaymentIntentAuthorizationCheckout1764002000000 } from './1764002000000-AddPaymentIntentAuthorizationCheckout';
import { CreateTestClocks1764002100000 } from './1764002100000-CreateTestClocks';
import { CreateSubscriptions1764002200000 } from './1764002200000-CreateSubscriptions';
import { CreateInvoices1764002300000 } from './1764002300000-CreateInvoices';
import { CreateAuditEvents1764002400000 } from './1764002400000-CreateAuditEvents';
import { AddDeveloperSuspension1764002450000 } from './1764002450000-AddDeveloperSuspension';
import { CreateAnalyticsRollups1764002500000 } from './1764002500000-CreateAnalyticsRollups';
import { CreateExports1764002600000 } from './1764002600000-CreateExports';
import { IndexFailedWebhookAttempts1764002700000 } from './1764002700000-IndexFailedWebhookAttempts';
import { ChainLedgerEntries1764002800000 } from './1764002800000-ChainLedgerEntries';
import { RecordEventRequests1764002900000 } from './1764002900000-RecordEventRequests';
import { HealWebhookEndpoints1764003000000 } from './1764003000000-HealWebhookEndpoints';
import { AddEventFeed1764003100000 } from './1764003100000-AddEventFeed';
import { PartitionRequestLogs1764003200000 } from './1764003200000-PartitionRequestLogs';
import { AddRequestLogFeed1764003250000 } from './1764003250000-AddRequestLogFeed';
import { IndexListFilters1764003300000 } from './1764003300000-IndexListFilters';
import { AddPaymentReconciliation1764003350000 } from './1764003350000-AddPaymentReconciliation';
import { IndexWalletEntriesByTime1764003450000 } from './1764003450000-IndexWalletEntriesByTime';
import { DrainWebhookDeliveryJobs1764003500000 } from './1764003500000-DrainWebhookDeliveryJobs';
import { ReferenceParentsWithinTheTenant1764003600000 } from './1764003600000-ReferenceParentsWithinTheTenant';
import { IndexDueScans1764003750000 } from './1764003750000-IndexDueScans';
import { IndexRemainingListFilters1764003800000 } from './1764003800000-IndexRemainingListFilters';
import { IndexWalletLinesOnly1764003900000 } from './1764003900000-IndexWalletLinesOnly';
import { KeepCheckoutLinkUpdatesHot1764004000000 } from './1764004000000-KeepCheckoutLinkUpdatesHot';
import { DropUnreadRefundIndex1764004100000 } from './1764004100000-DropUnreadRefundIndex';
import { OrderNewIdsByTime1764004200000 } from './1764004200000-OrderNewIdsByTime';
import { OrderLedgerEntryIdsByTime1764004300000 } from './1764004300000-OrderLedgerEntryIdsByTime';
import { HashLedgerEntriesInOnePass1764004400000 } from './1764004400000-HashLedgerEntriesInOnePass';
import { ScheduleReconciliationsApart1764004500000 } from './1764004500000-ScheduleReconciliationsApart';

/** Every migration, oldest first. Listed explicitly so source and compiled builds agree. */
export const MIGRATIONS = [
  CreateDevelopersAndApiKeys1764000000000,
  CreateIpAllowlistAndCustomers1764000050000,
  CreateIdempotencyKeys1764000100000,
  CreateRequestLogs1764000200000,
  CreatePortalIdentity1764000300000,
  CreateEventsOutbox1764000400000,
  CreateWalletsAndLedger1764000500000,
  CreateSubaccounts1764000550000,
  CreatePayments1764000600000,
  AddPaymentTriggeredAt1764000650000,
  CreateWebhooks1764000700000,
  CreateRefunds1764000800000,
  CreatePaymentIntents1764000810000,
  CreatePaymentBatches1764000900000,
  KeyRequestLogsByRequestId1764001000000,
  NumberWebhookAttemptsPerDelivery1764001070000,
  AddPaymentIntentClaims1764001100000,
  AddRefundRequestHash1764001110000,
  AddPaymentBatchItemClaimToken1764001120000,
  CreateOutboundMails1764001200000,
  ClassifyWebhookAttemptErrors1764001300000,
  RenamePaymentRequestFingerprint1764001400000,
  CreateTransfers1764001500000,
  CreateTransferBatches1764001600000,
  CreateSettlements1764001700000,
  CreateVirtualAccounts1764001800000,
  CreateDisputes1764001900000,
  AddPaymentIntentAuthorizationCheckout1764002000000,
  CreateTestClocks1764002100000,
  CreateSubscriptions1764002200000,
  CreateInvoices1764002300000,
  CreateAuditEvents1764002400000,
  AddDeveloperSuspension1764002450000,
  CreateAnalyticsRollups1764002500000,
  CreateExports1764002600000,
  IndexFailedWebhookAttempts1764002700000,
  ChainLedgerEntries1764002800000,
  RecordEventRequests1764002900000,
  HealWebhookEndpoints1764003000000,
  AddEventFeed1764003100000,
  PartitionRequestLogs1764003200000,
  AddRequestLogFeed1764003250000,
  IndexListFilters1764003300000,
  AddPaymentReconciliation1764003350000,
  IndexWalletEntriesByTime1764003450000,
  DrainWebhookDeliveryJobs1764003500000,
  ReferenceParentsWithinTheTenant1764003600000,
  IndexDueScans1764003750000,
  IndexRemainingListFilters1764003800000,
  IndexWalletLinesOnly1764003900000,
  KeepCheckoutLinkUpdatesHot1764004000000,
  DropUnreadRefundIndex1764004100000,
  OrderNewIdsByTime1764004200000,
  OrderLedgerEntryIdsByTime1764004300000,
  HashLedgerEntriesInOnePass1764004400000,
  ScheduleReconciliationsApart1764004500000,
];
