import { Module } from '@nestjs/common';
import { CustomersModule } from '@gateway/domain/customers';
import { CustomersController } from './customers.controller';

@Module({ imports: [CustomersModule], controllers: [CustomersController] })
export class CustomersApiModule {}
