export { CustomersModule } from './customers.module';
export { customerByEmailCtes, CustomersService, type CustomerListFilter, type NewCustomer } from './customers.service';
export { toCustomerResponse } from './customer.mapper';
export type { CustomerEntity as Customer } from './customer.entity';
